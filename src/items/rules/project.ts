// Which project a task, decision, goal or event belongs to: the one the sentence names ("for
// project Atlas", "the Atlas project", "Atlas项目"), else the repository it mentions, else the
// extractor's default. Deterministic: the same sentence always gets the same project.

import { firstRepo } from './entities.js';
import type { SentenceContext } from './rule.js';

export interface ProjectOf {
  /** As written ("Atlas"); key segments slug it. */
  name: string;
  /** Where the sentence names it, so titles can leave the phrase out. */
  span?: [number, number];
}

const EN_PROJECT =
  /\b(?:(?:for|on|in|of|to|with)\s+(?:the\s+)?project\s+["'“‘]?(\p{Lu}[\p{L}\p{N}_.-]*)["'”’]?|(?:for|on|in|of|to|with)\s+(?:the\s+|our\s+|my\s+)?(\p{Lu}[\p{L}\p{N}_.-]*)\s+project\b|^project\s+(\p{Lu}[\p{L}\p{N}_.-]*))/u;
const ZH_PROJECT =
  /(?:项目|工程)\s*(?:[「“"《](\p{Script=Han}{2,8})[」”"》]|([A-Za-z][\w.-]*))|([A-Za-z][\w.-]*)\s*项目|(?:^|的|为|给|对|在|把)((?:(?!的)\p{Script=Han}){2,6})项目/u;
const NOT_A_NAME = /^(?:这个|那个|这|那|本|该|新|整个|所有|各|一个|我们|我们的|我的|你的|这些|那些)$/u;

/**
 * The project of a sentence.
 *
 * @example
 * projectOf({ text: 'TODO: write the docs for project Atlas', language: 'en', defaultProject: 'general' }).name // 'Atlas'
 */
export function projectOf(context: Pick<SentenceContext, 'text' | 'language' | 'defaultProject'>): ProjectOf {
  const found = (context.language === 'zh' ? ZH_PROJECT : EN_PROJECT).exec(context.text);
  if (found !== null) {
    const name = (found[1] ?? found[2] ?? found[3] ?? found[4] ?? '').replace(/[.,]+$/, '');
    if (name !== '' && !NOT_A_NAME.test(name)) return { name, span: [found.index, found.index + found[0].length] };
  }
  const repo = firstRepo(context);
  if (repo !== undefined) return { name: repo.name.split('/')[1] ?? repo.name };
  return { name: context.defaultProject };
}
