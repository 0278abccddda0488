// The citations of a long-term item in a packet: its source events that were read for the packet
// (secret events never are), each by id, kind and time.

import type { EventRecord } from '../spec/event.js';
import type { MemoryItem } from '../spec/items.js';
import type { Citation } from '../spec/packet.js';

/**
 * The citations of an item's source events found in `sources`; a source not read is not cited.
 *
 * @example
 * builder.offer({ ...offer, cites: citationsOf(item, candidates.sources) });
 */
export function citationsOf(item: MemoryItem, sources: ReadonlyMap<string, EventRecord>): Citation[] {
  return item.source_event_ids.flatMap((id) => {
    const event = sources.get(id);
    return event === undefined ? [] : [{ id, type: event.kind, ts: event.ts }];
  });
}
