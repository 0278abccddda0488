// Names of people, organisations and topics (MemoryTypes v0.1 §3.6, may-write): a capitalised name
// becomes an entity only when the input repeats it or emphasises it (**Atlas**, "Atlas", 《书名》),
// since one passing mention is not worth remembering. Names are collected over the whole input and
// emitted at its end.

import type { EvidenceRef, ItemCandidate } from '../../spec/items.js';
import { makeKey } from '../keys.js';
import { BOTH_LANGUAGES, CONVERSATION, emit, type ExtractionMemory, type Rule, type SentenceContext, type Source } from './rule.js';

export const NAME_RULE: Rule = {
  name: 'any.entity.name',
  languages: BOTH_LANGUAGES,
  roles: CONVERSATION,
  type: 'entities',
  confidence: 0.5,
  gate: 'may',
  trigger: /[a-z]/,
  match: () => [],
};

// One to three capitalised words ("Alice", "Alice Chen", "OpenAI", "Acme Labs"); all-caps words
// (TODO, API) are not names.
const CAPITALISED = /(?<![\p{L}\p{N}_'’./@#-])\p{Lu}\p{Ll}[\p{L}\p{N}'’-]*(?: \p{Lu}\p{Ll}[\p{L}\p{N}'’-]*){0,2}/gu;
const BOOK_TITLE = /《([^》]{1,30})》/gu;
const EMPHASIS_BEFORE = /(?:\*\*|__|["“'‘`])$/u;
const EMPHASIS_AFTER = /^(?:\*\*|__|["”'’`])/u;
const PERSON_BEFORE =
  /\b(?:met|meet|meeting with|told|tell|asked|ask|call|called|email|emailed|ping|pinged|cc|thank|thanks|talked to|talk to|spoke to|spoke with|with|from|mr\.?|mrs\.?|ms\.?|dr\.?|dear|colleague|manager|boss|friend|wife|husband|partner|sister|brother|mom|dad)\s+$/i;
const PERSON_AFTER = /^(?:'s\s|’s\s|\s+(?:said|says|told|asked|thinks|wants|wrote|replied|mentioned|will|is my|is our|from))/i;
const ORG_BEFORE = /\b(?:work(?:s|ed|ing)? (?:at|for)|joined|join|company|at)\s+$/i;
const ORG_SUFFIX = /\s(?:Inc|Corp|Corporation|Ltd|LLC|GmbH|Labs|Foundation|University|Institute|Company|Group|Bank|Capital|Ventures|Technologies|Systems|Studio|Studios)\.?$/u;

const COMMON: ReadonlySet<string> = new Set(
  (
    "i i'm i'd i'll i've the a an this that these those it it's its we we're we'll you you're your he she they my our their " +
    'please thanks thank hi hello hey yes no ok okay sure also and but so then now today tomorrow yesterday tonight ' +
    'monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september ' +
    'october november december english chinese french german spanish japanese korean actually let\'s lets what why how when ' +
    'where who which there here todo done maybe perhaps probably just remind don\'t never always great good well oh sorry ' +
    'first next last after before in on at for with from to of is are can could would should will do did if as by dear ' +
    'mr mrs ms dr note update fix add use make new see check sounds got thank noted sure right yeah yep great cool nice ' +
    'decision decided goal task team everyone anyone someone nothing everything one two three my our'
  ).split(' '),
);

interface Sighting {
  name: string;
  aliases: Set<string>;
  mentions: Source[];
  initialOnly: boolean;
  emphasised: boolean;
  person: boolean;
  org: boolean;
}

/** Collects names over one input and emits the repeated or emphasised ones. */
export class NameTracker {
  private readonly sightings = new Map<string, Sighting>();

  /** Records the names of one sentence. */
  scan(context: SentenceContext): void {
    if (context.language === 'zh') {
      for (const found of context.text.matchAll(BOOK_TITLE)) this.see(context, found[1]!, found.index + 1, { emphasised: true, initial: false });
    }
    for (const found of context.text.matchAll(CAPITALISED)) {
      const parts = found[0].replace(/['’]s$/u, '').split(' ');
      let index = found.index;
      while (parts.length > 0 && COMMON.has(parts[0]!.toLowerCase())) index += parts.shift()!.length + 1;
      while (parts.length > 0 && COMMON.has(parts[parts.length - 1]!.toLowerCase())) parts.pop();
      if (parts.length === 0) continue;
      const name = parts.join(' ');
      const before = context.text.slice(Math.max(0, index - 30), index);
      const after = context.text.slice(index + name.length, index + name.length + 30);
      // Emphasis wraps the whole capitalised run ("**Project Atlas**") or just the name.
      const runEnd = found.index + found[0].length;
      const emphasised =
        (EMPHASIS_BEFORE.test(before) && EMPHASIS_AFTER.test(after)) ||
        (EMPHASIS_BEFORE.test(context.text.slice(Math.max(0, found.index - 2), found.index)) && EMPHASIS_AFTER.test(context.text.slice(runEnd, runEnd + 2)));
      this.see(context, name, index, {
        emphasised,
        initial: /^[\s"'“‘(*_-]*$/u.test(context.text.slice(0, index)),
        person: PERSON_BEFORE.test(before) || PERSON_AFTER.test(after),
        org: ORG_SUFFIX.test(` ${name}`) || ORG_BEFORE.test(before),
      });
    }
  }

  private see(context: SentenceContext, name: string, index: number, cues: { emphasised: boolean; initial: boolean; person?: boolean; org?: boolean }): void {
    const id = name.toLowerCase();
    const sighting = this.sightings.get(id) ?? { name, aliases: new Set<string>(), mentions: [], initialOnly: true, emphasised: false, person: false, org: false };
    sighting.aliases.add(name);
    if (sighting.mentions.length < 6) sighting.mentions.push({ event: context.event, start: context.start + index, end: context.start + index + name.length });
    sighting.initialOnly &&= cues.initial;
    sighting.emphasised ||= cues.emphasised;
    sighting.person ||= cues.person === true;
    sighting.org ||= cues.org === true;
    this.sightings.set(id, sighting);
  }

  /**
   * Entity candidates for names said at least twice (not only at sentence starts, unless they are
   * several words) or emphasised. Three mentions or emphasis give 0.6, two give 0.5.
   */
  candidates(memory: ExtractionMemory): ItemCandidate[] {
    const out: ItemCandidate[] = [];
    for (const sighting of this.sightings.values()) {
      const repeated = sighting.mentions.length >= 2 && (!sighting.initialOnly || sighting.name.includes(' '));
      if (!repeated && !sighting.emphasised) continue;
      const kind = sighting.org ? 'org' : sighting.person ? 'person' : 'topic';
      const key = makeKey('entities', [kind, sighting.name]);
      if (memory.produced.some((candidate) => candidate.key === key) || out.some((candidate) => candidate.key === key)) continue;
      const canonical = key.slice(key.indexOf(':', 'entity:'.length) + 1);
      const evidence: EvidenceRef[] = sighting.mentions.map((mention) => ({ kind: 'event', ref: mention.event.event_id, span: [mention.start, mention.end] }));
      const candidate = emit(sighting.mentions[0]!, NAME_RULE, {
        key,
        value: { kind, canonical, aliases: [...sighting.aliases].filter((alias) => alias.toLowerCase() !== canonical), attrs: {} },
        confidence: sighting.emphasised || sighting.mentions.length >= 3 ? 0.6 : 0.5,
        evidence,
      });
      candidate.source_event_ids = [...new Set(sighting.mentions.map((mention) => mention.event.event_id))];
      out.push(candidate);
    }
    return out;
  }
}
