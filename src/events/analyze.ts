// The text of an event, analysed once per write: its sentences with their words (for the
// summarizer) and its full-text index entry (all words, and its speaker's). Secret events, state
// patches and markers have neither.

import type { EventRecord } from '../spec/event.js';
import { sentences, words } from '../util/segment.js';
import { contentText } from './content-text.js';
import { isShareable } from './sensitivity.js';

export interface AnalysedSentence {
  text: string;
  words: string[];
}

export interface EventText {
  sentences: AnalysedSentence[];
  /** Words separated by spaces, for the full-text index; null when the event is not searchable. */
  searchText: string | null;
}

const NOTHING: EventText = { sentences: [], searchText: null };

/**
 * Sentences, words and index text of an event.
 *
 * @example
 * analyseEvent(event).searchText // 'i prefer dark mode'
 */
export function analyseEvent(event: EventRecord): EventText {
  // Only what was said or returned is searchable; state patches and markers are bookkeeping.
  if (!isShareable(event) || (event.kind !== 'message' && event.kind !== 'tool_result')) return NOTHING;
  const analysed = sentences(contentText(event.content)).map((text) => ({ text, words: words(text) }));
  const all = analysed.flatMap((sentence) => sentence.words);
  if (all.length === 0) return { sentences: analysed, searchText: null };
  // Who said it is part of what an event says: "what did Caroline say about…" matches her own
  // messages, not only those that name her. On every message of its speaker, a name is a common
  // word of the scope and weighs little next to the rarer words of a query.
  const speaker = event.speaker === null ? [] : words(event.speaker);
  return { sentences: analysed, searchText: [...speaker, ...all].join(' ') };
}
