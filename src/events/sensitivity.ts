// The sensitivity rules of the episodic log, in one place: what may be indexed, summarised,
// extracted or placed in a packet.

import type { EventRecord, Sensitivity } from '../spec/event.js';
import { searchText } from '../util/segment.js';
import { contentText } from './content-text.js';

/** Sensitivities that never reach a packet, a summary, an index or a provider. */
export const NEVER_SHARED: readonly Sensitivity[] = ['secret'];

/**
 * True when an event may feed derived memory (summary, quotes, packets, extraction).
 *
 * @example
 * isShareable({ ...event, sensitivity: 'secret' }) // false
 */
export function isShareable(event: Pick<EventRecord, 'sensitivity'>): boolean {
  return !NEVER_SHARED.includes(event.sensitivity);
}

/**
 * The full-text index entry of an event: its segmented text, or null when it must not be searchable.
 *
 * @example
 * searchTextOf(event) // 'i prefer dark mode'
 */
export function searchTextOf(event: EventRecord): string | null {
  // Only what was said or returned is searchable; state patches and markers are bookkeeping.
  if (!isShareable(event) || (event.kind !== 'message' && event.kind !== 'tool_result')) return null;
  const text = searchText(contentText(event.content));
  return text === '' ? null : text;
}
