// References in text — URLs, repositories (owner/name, github.com/owner/name) and file paths — as
// entity candidates. They are must-write (MemoryTypes v0.1 §5: refs are always kept). The same
// reference seen again in one input adds evidence to the first candidate instead of a second one.

import type { EvidenceRef, ItemCandidate } from '../../spec/items.js';
import { makeKey } from '../keys.js';
import {
  BOTH_LANGUAGES,
  CONVERSATION,
  emit,
  type ExtractionMemory,
  type Rule,
  type SentenceContext,
  type Source,
} from './rule.js';

export type RefKind = 'url' | 'repo' | 'file';

export interface Ref {
  kind: RefKind;
  /** The name the key is made from: a URL, `owner/name`, or a path without a leading `./`. */
  name: string;
  /** As written. */
  raw: string;
  host?: string;
  index: number;
}

const URL = /\b(?:https?:\/\/|www\.)[^\s<>"'`{}|\\^[\]]+/gi;
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"。，；：！？）]+$/u;
const REPO_URL =
  /^(?:https?:\/\/)?(?:www\.)?(github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)\/([\w.-]+)\/([\w.-]+?)(?:\.git)?(?:\/(.*))?$/i;
const BARE_REPO_URL =
  /(?<![\w/.:@-])(github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)\/([\w-][\w.-]*)\/([\w-][\w.-]*)/gi;
// A path with a directory and a file extension (docs/x.md, ./src/a.ts, ~/notes/todo.txt), a path
// starting ./ ../ or ~/, or an absolute path of two or more segments (/etc/hosts).
const SEGMENT = String.raw`[\p{L}\p{N}_@.-]`;
const PATH = new RegExp(
  String.raw`(?<![\w/.:@\\-])(?:(?:~\/|\.{1,2}\/|\/)?[\w@-]${SEGMENT}*\/(?:${SEGMENT}+\/)*[\p{L}\p{N}_-]${SEGMENT}*\.[a-z][a-z0-9]{0,7}|(?:\.{1,2}|~)\/${SEGMENT}+(?:\/${SEGMENT}+)*\/?|\/[\w@-]${SEGMENT}*(?:\/${SEGMENT}+)+\/?)(?![\w/])`,
  'gu',
);
const FILE_EXTENSIONS =
  'md|mdx|ts|tsx|js|jsx|mjs|cjs|json|jsonc|yaml|yml|toml|py|rb|rs|go|java|kt|swift|c|h|cc|cpp|hpp|cs|php|sh|bash|zsh|sql|html|css|scss|txt|csv|tsv|ini|cfg|conf|lock|xml|ipynb|pdf|doc|docx|xls|xlsx|ppt|pptx|png|jpg|jpeg|svg|gif|env|log|vue|svelte|proto|tf|gradle|rst|tex';
const BARE_FILE = new RegExp(
  `(?<![\\w/.:@\\\\-])[\\w-]+(?:\\.[\\w-]+)*\\.(?:${FILE_EXTENSIONS})(?![\\w/-]|\\.\\w)`,
  'g',
);
// Names of libraries written like files ("Node.js", "Vue.js") are not files.
const LIBRARY_NAME = /^\p{Lu}\p{Ll}+\.js$/u;
const BARE_REPO = /(?<![\w/.:@\\-])([A-Za-z0-9][\w.-]*)\/([A-Za-z0-9][\w.-]*)(?![\w/])/g;
const REPO_CONTEXT =
  /\b(?:repo|repos|repository|repositories|clone|cloned|fork|forked|pull request|pr|github|gitlab|npm package)\b|仓库|代码库/i;
/** True when a sentence may hold a reference: a slash, or a dot followed by a letter. */
export const REF_CUE = /[/\\]|\.[a-z]/i;

function overlaps(spans: ReadonlyArray<readonly [number, number]>, start: number, end: number): boolean {
  return spans.some(([from, to]) => start < to && end > from);
}

/**
 * The references in a text, in order of appearance, each once per span.
 *
 * @example
 * findRefs('see docs/x.md and https://github.com/acme/atlas').map((ref) => ref.kind) // ['file', 'repo']
 */
export function findRefs(text: string): Ref[] {
  const out: Ref[] = [];
  const taken: Array<readonly [number, number]> = [];
  const add = (ref: Ref, length: number): void => {
    out.push(ref);
    taken.push([ref.index, ref.index + length]);
  };
  for (const found of text.matchAll(URL)) {
    const raw = found[0].replace(TRAILING_PUNCTUATION, '');
    const repo = REPO_URL.exec(raw);
    if (repo !== null && !['orgs', 'settings', 'features', 'topics', 'marketplace'].includes(repo[2]!.toLowerCase())) {
      add(
        { kind: 'repo', name: `${repo[2]}/${repo[3]}`, raw, host: repo[1]!.toLowerCase(), index: found.index },
        raw.length,
      );
      if (repo[4] !== undefined && repo[4] !== '')
        out.push({ kind: 'url', name: raw, raw, host: repo[1]!.toLowerCase(), index: found.index });
      continue;
    }
    const host = /^(?:https?:\/\/)?([^/?#:]+)/i.exec(raw)?.[1]?.toLowerCase();
    add({ kind: 'url', name: raw, raw, ...(host === undefined ? {} : { host }), index: found.index }, raw.length);
  }
  for (const found of text.matchAll(BARE_REPO_URL)) {
    if (overlaps(taken, found.index, found.index + found[0].length)) continue;
    const raw = found[0].replace(TRAILING_PUNCTUATION, '');
    const name = `${found[2]}/${found[3]!.replace(TRAILING_PUNCTUATION, '').replace(/\.git$/i, '')}`;
    add({ kind: 'repo', name, raw, host: found[1]!.toLowerCase(), index: found.index }, raw.length);
  }
  for (const found of text.matchAll(PATH)) {
    const raw = found[0].replace(/\.+$/, '');
    if (overlaps(taken, found.index, found.index + raw.length)) continue;
    add({ kind: 'file', name: raw.replace(/^\.\//, '').replace(/\/+$/, ''), raw, index: found.index }, raw.length);
  }
  for (const found of text.matchAll(BARE_FILE)) {
    const raw = found[0];
    if (LIBRARY_NAME.test(raw) || overlaps(taken, found.index, found.index + raw.length)) continue;
    add({ kind: 'file', name: raw, raw, index: found.index }, raw.length);
  }
  if (REPO_CONTEXT.test(text)) {
    for (const found of text.matchAll(BARE_REPO)) {
      if (
        overlaps(taken, found.index, found.index + found[0].length) ||
        /^\d+$/.test(found[1]!) ||
        /^\d+$/.test(found[2]!)
      )
        continue;
      const raw = found[0].replace(/[.-]+$/, '');
      add({ kind: 'repo', name: raw.replace(/\.git$/i, ''), raw, index: found.index }, raw.length);
    }
  }
  return out.sort((a, b) => a.index - b.index);
}

export const URL_RULE = refRule('any.entity.url', 0.9);
export const REPO_RULE = refRule('any.entity.repo', 0.85);
export const FILE_RULE = refRule('any.entity.file', 0.85);
const RULE_OF: Readonly<Record<RefKind, Rule>> = { url: URL_RULE, repo: REPO_RULE, file: FILE_RULE };

function refRule(name: string, confidence: number): Rule {
  return {
    name,
    languages: BOTH_LANGUAGES,
    roles: CONVERSATION,
    type: 'entities',
    confidence,
    gate: 'must',
    trigger: REF_CUE,
    questions: true,
    match: () => [],
  };
}

/** The entity key of a reference. */
export function refKey(ref: Ref): string {
  return makeKey('entities', [ref.kind, ref.name]);
}

/** The evidence pointer a reference itself is (a URL or a file), beside the event that named it. */
export function refEvidence(ref: Ref): EvidenceRef | undefined {
  if (ref.kind === 'url') return { kind: 'url', ref: ref.raw };
  if (ref.kind === 'file') return { kind: 'file', ref: ref.name };
  return undefined;
}

/**
 * Entity candidates for references found in a source; a key already produced in this input gets
 * the new mention as evidence instead. `offset` is where the searched text starts in the event; a
 * reference found beyond `limit` (in a tool's structured output) gets the source's whole span.
 */
export function refCandidates(
  source: Source,
  refs: readonly Ref[],
  memory: ExtractionMemory,
  offset: number,
  limit = Infinity,
): ItemCandidate[] {
  const out: ItemCandidate[] = [];
  for (const ref of refs) {
    const key = refKey(ref);
    const span: [number, number] =
      ref.index < limit ? [offset + ref.index, offset + ref.index + ref.raw.length] : [source.start, source.end];
    const earlier =
      memory.produced.find((candidate) => candidate.key === key) ?? out.find((candidate) => candidate.key === key);
    if (earlier !== undefined) {
      if ((earlier.evidence_refs?.length ?? 0) < 6)
        earlier.evidence_refs?.push({ kind: 'event', ref: source.event.event_id, span });
      if (!earlier.source_event_ids.includes(source.event.event_id))
        earlier.source_event_ids.push(source.event.event_id);
      continue;
    }
    const canonical = key.slice(key.indexOf(':', 'entity:'.length) + 1);
    const names =
      ref.kind === 'repo'
        ? [ref.host === undefined ? ref.raw : `${ref.host}/${ref.name}`, ref.name.split('/')[1]!]
        : [ref.raw];
    const aliases = [...new Set(names)].filter((alias) => alias.toLowerCase() !== canonical);
    const evidence = refEvidence(ref);
    out.push(
      emit({ event: source.event, start: span[0], end: span[1] }, RULE_OF[ref.kind], {
        key,
        value: { kind: ref.kind, canonical, aliases, attrs: ref.host === undefined ? {} : { host: ref.host } },
        ...(evidence === undefined ? {} : { moreEvidence: [evidence] }),
      }),
    );
  }
  return out;
}

/**
 * The sentence rule that finds references; its candidates carry the rule of their kind
 * (`any.entity.url`, `any.entity.repo`, `any.entity.file`).
 */
export const REF_SCAN: Rule = {
  ...URL_RULE,
  name: 'any.entity.ref',
  match: (context) => refCandidates(context, findRefs(context.text), context.memory, context.start),
};

/** The rules whose names reference candidates carry. */
export const REF_RULES: readonly Rule[] = [URL_RULE, REPO_RULE, FILE_RULE];

/** The repository named in a sentence, if any: the fallback project of tasks and decisions. */
export function firstRepo(context: Pick<SentenceContext, 'text'>): Ref | undefined {
  if (!REF_CUE.test(context.text)) return undefined;
  return findRefs(context.text).find((ref) => ref.kind === 'repo');
}
