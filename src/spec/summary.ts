// The short-term memory of one session: a pool of scored sentences from which the rolling summary
// is cut to any token budget, and the key quotes. Both point back to the events they came from.

import type { PacketRole } from './packet.js';

/** One sentence of the session, scored for the extractive summary or kept as a key quote. */
export interface SummarySentence {
  event_id: string;
  /** Index of the sentence inside its event. */
  position: number;
  role: PacketRole;
  /** Who said it (`speakerName` of its event); absent for an event without a speaker, and in summaries kept before speakers were. */
  speaker?: string;
  ts: string;
  text: string;
  tokens: number;
  score: number;
  expires_at: string | null;
  /**
   * The built-in tokenizer's (o200k_base) count of the text after a space, as the rolling summary
   * shows it: kept when the sentence enters the pool with that tokenizer, so compose adds up a
   * summary's tokens instead of counting its text (`keptSummaryTokens`). Absent when not kept
   * (another tokenizer, a store written before, an import); exports leave it out.
   */
  spaced_tokens?: number;
}

/** The stored short-term memory of a session (`stm_summary`). */
export interface StmSummary {
  version: number;
  /** The best sentences seen so far, in log order; the rolling summary is cut from them. */
  sentences: SummarySentence[];
  /** The most quotable sentences, in log order, each carrying its source event id. */
  key_quotes: SummarySentence[];
  last_event_id: string | null;
  events_folded: number;
  updated_at: string;
}

/** The summary of a session that has none yet. */
export function emptySummary(): StmSummary {
  return { version: 0, sentences: [], key_quotes: [], last_event_id: null, events_folded: 0, updated_at: '' };
}
