// Names of people, organisations and topics (MemoryTypes v0.1 §3.6, may-write): a capitalised name
// becomes an entity only when the input repeats it or emphasises it (**Atlas**, "Atlas", 《书名》),
// since one passing mention is not worth remembering. Names are collected over the whole input and
// emitted at its end.

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
// (TODO, API) are not names. The capital comes before the look-behind so that the engine drops a
// position without one at once. Unicode property classes are slow in V8's regexp engine, so ASCII
// text (most English) takes the ASCII twin, which matches exactly the same there.
const CAPITALISED =
  /\p{Lu}(?<![\p{L}\p{N}_'’./@#-]\p{Lu})\p{Ll}[\p{L}\p{N}'’-]*(?: \p{Lu}\p{Ll}[\p{L}\p{N}'’-]*){0,2}/gu;
const CAPITALISED_ASCII = /[A-Z](?<![A-Za-z0-9_'./@#-][A-Z])[a-z][A-Za-z0-9'-]*(?: [A-Z][a-z][A-Za-z0-9'-]*){0,2}/g;
const BOOK_TITLE = /《([^》]{1,30})》/gu;
const PERSON_BEFORE =
  /\b(?:met|meet|meeting with|told|tell|asked|ask|call|called|email|emailed|ping|pinged|cc|thank|thanks|talked to|talk to|spoke to|spoke with|with|from|mr\.?|mrs\.?|ms\.?|dr\.?|dear|colleague|manager|boss|friend|wife|husband|partner|sister|brother|mom|dad)\s+$/i;
const PERSON_AFTER =
  /^(?:'s\s|’s\s|\s+(?:said|says|told|asked|thinks|wants|wrote|replied|mentioned|will|is my|is our|from))/i;
const ORG_BEFORE = /\b(?:work(?:s|ed|ing)? (?:at|for)|joined|join|company|at)\s+$/i;
const ORG_SUFFIX =
  /\s(?:Inc|Corp|Corporation|Ltd|LLC|GmbH|Labs|Foundation|University|Institute|Company|Group|Bank|Capital|Ventures|Technologies|Systems|Studio|Studios)\.?$/u;

// Emphasis marks around a name ("**", "__" or quotes), tested as characters: an expression anchored
// at the end of a string still tries every position of it.
const OPENING = '"“\'‘`';
const CLOSING = '"”\'’`';
// Sticky: tests the one character at lastIndex.
const SPACE = /\s/y;
// Only spaces, quotes and marks before a name: it starts its sentence.
const INITIAL = /^[\s"'“‘(*_-]*$/u;

function emphasisBefore(text: string, at: number): boolean {
  return (
    (at >= 2 && (text.startsWith('**', at - 2) || text.startsWith('__', at - 2))) ||
    (at >= 1 && OPENING.includes(text[at - 1]!))
  );
}

function emphasisAfter(text: string, at: number): boolean {
  return text.startsWith('**', at) || text.startsWith('__', at) || (at < text.length && CLOSING.includes(text[at]!));
}

/** True when whitespace ends the text before `at`: PERSON_BEFORE and ORG_BEFORE end in `\s+$`. */
function spaceBefore(text: string, at: number): boolean {
  if (at === 0) return false;
  SPACE.lastIndex = at - 1;
  return SPACE.test(text);
}

const COMMON: ReadonlySet<string> = new Set(
  (
    "i i'm i'd i'll i've the a an this that these those it it's its we we're we'll you you're your he she they my our their " +
    'please thanks thank hi hello hey yes no ok okay sure also and but so then now today tomorrow yesterday tonight ' +
    'monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september ' +
    "october november december english chinese french german spanish japanese korean actually let's lets what why how when " +
    "where who which there here todo done maybe perhaps probably just remind don't never always great good well oh sorry " +
    'first next last after before in on at for with from to of is are can could would should will do did if as by dear ' +
    'mr mrs ms dr note update fix add use make new see check sounds got thank noted sure right yeah yep great cool nice ' +
    'decision decided goal task team everyone anyone someone nothing everything one two three my our'
  ).split(' '),
);

/** What a name scan reads of a sentence. */
export type NameSource = Pick<SentenceContext, 'event' | 'start' | 'text' | 'language'>;

/**
 * Where a capitalised name was seen. Whether the words around it make it a person or an
 * organisation is read only for the few names that become candidates.
 */
interface Place {
  text: string;
  index: number;
  name: string;
}

function personAt({ text, index, name }: Place): boolean {
  const end = index + name.length;
  return (
    (spaceBefore(text, index) && PERSON_BEFORE.test(text.slice(Math.max(0, index - 30), index))) ||
    PERSON_AFTER.test(text.slice(end, end + 30))
  );
}

function organisationAt({ text, index, name }: Place): boolean {
  return (
    ORG_SUFFIX.test(` ${name}`) ||
    (spaceBefore(text, index) && ORG_BEFORE.test(text.slice(Math.max(0, index - 30), index)))
  );
}

interface Sighting {
  name: string;
  /** Spellings seen, in order. */
  aliases: string[];
  mentions: Source[];
  initialOnly: boolean;
  emphasised: boolean;
  places: Place[];
}

/** Collects names over one input and emits the repeated or emphasised ones. */
export class NameTracker {
  private readonly sightings = new Map<string, Sighting>();

  /** Records the names of one sentence; `ascii` says it has no character beyond U+007F. */
  scan(context: NameSource, ascii: boolean): void {
    const text = context.text;
    if (context.language === 'zh') {
      BOOK_TITLE.lastIndex = 0;
      for (let found = BOOK_TITLE.exec(text); found !== null; found = BOOK_TITLE.exec(text)) {
        // 《》 is how every title is written, not emphasis: a title is a name like any other.
        this.see(context, found[1]!, found.index + 1, false, false);
      }
    }
    const pattern = ascii ? CAPITALISED_ASCII : CAPITALISED;
    pattern.lastIndex = 0;
    for (let found = pattern.exec(text); found !== null; found = pattern.exec(text)) {
      const run = found[0];
      const bare = run.endsWith("'s") || run.endsWith('’s') ? run.slice(0, -2) : run;
      let index = found.index;
      let name = bare;
      // Usually one word, the sentence's first ("The", "Can"): no array for it.
      if (!bare.includes(' ')) {
        if (COMMON.has(bare.toLowerCase())) continue;
      } else {
        const parts = bare.split(' ');
        while (parts.length > 0 && COMMON.has(parts[0]!.toLowerCase())) index += parts.shift()!.length + 1;
        while (parts.length > 0 && COMMON.has(parts[parts.length - 1]!.toLowerCase())) parts.pop();
        if (parts.length === 0) continue;
        name = parts.join(' ');
      }
      const end = index + name.length;
      const runEnd = found.index + run.length;
      // Emphasis wraps the whole capitalised run ("**Project Atlas**") or just the name.
      const emphasised =
        (emphasisBefore(text, index) && emphasisAfter(text, end)) ||
        (emphasisBefore(text, found.index) && emphasisAfter(text, runEnd));
      const initial = index === 0 || INITIAL.test(text.slice(0, index));
      this.see(context, name, index, emphasised, initial, { text, index, name });
    }
  }

  /** Records one mention of a name, and where a capitalised one was (`place`). */
  private see(
    context: NameSource,
    name: string,
    index: number,
    emphasised: boolean,
    initial: boolean,
    place?: Place,
  ): void {
    const id = name.toLowerCase();
    const mention: Source = {
      event: context.event,
      start: context.start + index,
      end: context.start + index + name.length,
    };
    const sighting = this.sightings.get(id);
    if (sighting === undefined) {
      // Most names are seen once: arrays made with their first element stay one element long.
      const places = place === undefined ? [] : [place];
      this.sightings.set(id, { name, aliases: [name], mentions: [mention], initialOnly: initial, emphasised, places });
      return;
    }
    if (!sighting.aliases.includes(name)) sighting.aliases.push(name);
    if (sighting.mentions.length < 6) sighting.mentions.push(mention);
    sighting.initialOnly &&= initial;
    sighting.emphasised ||= emphasised;
    if (place !== undefined) sighting.places.push(place);
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
      const kind = sighting.places.some(organisationAt) ? 'org' : sighting.places.some(personAt) ? 'person' : 'topic';
      const key = makeKey('entities', [kind, sighting.name]);
      if (memory.produced.some((candidate) => candidate.key === key) || out.some((candidate) => candidate.key === key))
        continue;
      const canonical = key.slice(key.indexOf(':', 'entity:'.length) + 1);
      const evidence: EvidenceRef[] = sighting.mentions.map((mention) => ({
        kind: 'event',
        ref: mention.event.event_id,
        span: [mention.start, mention.end],
      }));
      const candidate = emit(sighting.mentions[0]!, NAME_RULE, {
        key,
        value: {
          kind,
          canonical,
          aliases: sighting.aliases.filter((alias) => alias.toLowerCase() !== canonical),
          attrs: {},
        },
        confidence: sighting.emphasised || sighting.mentions.length >= 3 ? 0.6 : 0.5,
        evidence,
      });
      candidate.source_event_ids = [...new Set(sighting.mentions.map((mention) => mention.event.event_id))];
      out.push(candidate);
    }
    return out;
  }
}
