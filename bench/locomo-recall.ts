// Evidence recall on LoCoMo, as pure functions: clean evidence ids, the turns a packet cites
// (directly, or through the sources of a fact, procedure or episode it carries), and the share of a
// question's evidence among them.

import { stemmer } from 'stemmer';

import type { MemoryPacket } from '../src/index.js';
import { queryTerms, words } from '../src/util/segment.js';
import { contentTerms, STOPWORDS } from '../src/util/stopwords.js';

/**
 * The turn ids in one evidence string of the data set: `"D8:6; D9:17"` and `"D9:1 D4:4"` hold
 * several, `"D:11:26"` is `D11:26`, `"D30:05"` is `D30:5`, and `"D"` holds none.
 *
 * @example
 * normaliseEvidence('D8:6; D9:17') // ['D8:6', 'D9:17']
 */
export function normaliseEvidence(value: string): string[] {
  const ids: string[] = [];
  for (const token of value.split(/[\s;,]+/u)) {
    const match = /^D:?(\d+):(\d+)$/u.exec(token);
    if (match !== null) ids.push(`D${Number(match[1])}:${Number(match[2])}`);
  }
  return ids;
}

/** The parts of a packet that name events. */
export type CitingPacket = Pick<MemoryPacket, 'citations'> & {
  short_term: Pick<MemoryPacket['short_term'], 'key_quotes' | 'conversation_window'>;
  long_term: Pick<MemoryPacket['long_term'], 'facts' | 'procedures' | 'episodes'>;
};

/**
 * The events a packet cites. With `shownOnly`, an event cited only by entries degraded to a bare
 * reference (a key quote with no text, a fact with no notes) does not count: the prompt names its id
 * but not what it says.
 *
 * @example
 * citedEvents(packet) // Set { 'evt_…', … }
 */
export function citedEvents(packet: CitingPacket, options: { shownOnly?: boolean } = {}): Set<string> {
  const shown = new Set<string>();
  const referenced = new Set<string>();
  const note = (ids: readonly (string | undefined)[], isShown: boolean) => {
    for (const id of ids) if (id !== undefined) (isShown ? shown : referenced).add(id);
  };
  for (const quote of packet.short_term.key_quotes ?? []) note([quote.evidence_id], quote.quote !== '');
  for (const message of packet.short_term.conversation_window ?? [])
    note([message.evidence_id], message.content !== '');
  for (const fact of packet.long_term.facts) note(fact.sources, (fact.notes ?? '') !== '');
  for (const procedure of packet.long_term.procedures) note(procedure.sources ?? [], true);
  for (const episode of packet.long_term.episodes) note(episode.sources, true);
  const all = new Set<string>([...shown, ...referenced]);
  // The rolling summary and working state cite only through `citations`.
  for (const citation of packet.citations) {
    if (!referenced.has(citation.id)) shown.add(citation.id);
    all.add(citation.id);
  }
  return options.shownOnly === true ? shown : all;
}

/**
 * The share of `evidence` among the turns `cited` (null for a question without evidence).
 *
 * @example
 * evidenceRecall(['D1:3', 'D2:7'], new Set(['D1:3'])) // 0.5
 */
export function evidenceRecall(evidence: readonly string[], cited: ReadonlySet<string>): number | null {
  if (evidence.length === 0) return null;
  const wanted = new Set(evidence);
  let found = 0;
  for (const id of wanted) if (cited.has(id)) found += 1;
  return found / wanted.size;
}

/**
 * The turns a packet cites, through the map from event id to `dia_id` built at ingestion.
 *
 * @example
 * citedTurns(packet, new Map([['evt_…', 'D1:3']])) // Set { 'D1:3' }
 */
export function citedTurns(
  packet: CitingPacket,
  diaOfEvent: ReadonlyMap<string, string>,
  options: { shownOnly?: boolean } = {},
): Set<string> {
  const turns = new Set<string>();
  for (const id of citedEvents(packet, options)) {
    const dia = diaOfEvent.get(id);
    if (dia !== undefined) turns.add(dia);
  }
  return turns;
}

/**
 * Whether a turn shares a content word with a question, as the full-text search matches words
 * (lower case, possessives dropped, Porter stems): evidence that does not can be found only by
 * meaning, by time, or as the neighbour of a match.
 *
 * @example
 * sharesContentWord('Which doctors did I see?', 'Saw the dermatologist today.') // false
 * sharesContentWord('What did Caroline research?', 'Researching adoption agencies') // true
 */
export function sharesContentWord(question: string, text: string): boolean {
  const wanted = new Set(contentTerms(queryTerms(question)).map((term) => stemmer(term)));
  return words(text).some((word) => wanted.has(stemmer(word)));
}

/** The stems of a text's words. */
function stems(text: string): Set<string> {
  return new Set(words(text).map((word) => stemmer(word)));
}

/**
 * The text a packet shows for each event it cites: a key quote's or window message's text, a
 * fact's key and notes, an episode's summary (an entry citing several events shows for each).
 *
 * @example
 * shownText(packet).get('evt_…') // 'I went to a LGBTQ support group yesterday…'
 */
export function shownText(packet: CitingPacket): Map<string, string> {
  const out = new Map<string, string>();
  const show = (ids: readonly (string | undefined)[], text: string) => {
    if (text === '') return;
    for (const id of ids) if (id !== undefined) out.set(id, `${out.get(id) ?? ''}\n${text}`);
  };
  for (const quote of packet.short_term.key_quotes ?? []) show([quote.evidence_id], quote.quote);
  for (const message of packet.short_term.conversation_window ?? []) show([message.evidence_id], message.content);
  for (const fact of packet.long_term.facts) show(fact.sources, `${fact.fact_key} ${fact.notes ?? ''}`);
  for (const episode of packet.long_term.episodes) show(episode.sources, episode.summary);
  return out;
}

/**
 * How much of the answer a context shows with its evidence: of the reference answer's content
 * words (stemmed) that its evidence turns hold, the share found in the text the context shows for
 * those turns. A turn cited by a sentence that lacks the answer shows none of it. Null when the
 * evidence holds no word of the answer (answers that are inferred, dates said relatively).
 *
 * @example
 * answerShown('Adoption agencies', ['I researched adoption agencies. So cool!'], ['So cool!']) // 0
 */
export function answerShown(
  answer: string,
  evidenceTexts: readonly string[],
  shownTexts: readonly string[],
): number | null {
  const held = stems(evidenceTexts.join('\n'));
  const wanted = [...new Set(words(answer).flatMap((word) => (STOPWORDS.has(word) ? [] : [stemmer(word)])))].filter(
    (stem) => held.has(stem),
  );
  if (wanted.length === 0) return null;
  const shown = stems(shownTexts.join('\n'));
  return wanted.filter((stem) => shown.has(stem)).length / wanted.length;
}
