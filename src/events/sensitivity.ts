// The sensitivity rules of the episodic log, in one place: what may be indexed, summarised,
// extracted or placed in a packet.

import type { EventRecord, Sensitivity } from '../spec/event.js';

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
