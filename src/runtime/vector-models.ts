// Which model made the vectors a store holds, against the model configured now: vectors of another
// model are never compared with a query, so after a model change (in the configuration, or the
// default in an upgrade) meaning cannot find the texts they stand for until they are embedded again.

import type { VectorModelCount } from '../spec/storage.js';

/** The stored vectors by model, and the model configured now. */
export interface VectorModels {
  configured: string | null;
  models: VectorModelCount[];
}

/**
 * What to tell an operator about vectors meaning cannot use: the texts whose vectors another model
 * made than the configured one, and how to embed them again; null when there are none (or no model
 * is configured, and meaning is off anyway).
 *
 * @example
 * staleVectors({ configured: 'local:b', models: [{ model: 'local:a', events: 40, chunks: 2 }] })
 * // '40 events and 2 item chunks have vectors of local:a, not of the configured local:b: …'
 */
export function staleVectors({ configured, models }: VectorModels): string | null {
  if (configured === null) return null;
  const other = models.filter((entry) => entry.model !== configured);
  if (other.length === 0) return null;
  const events = other.reduce((sum, entry) => sum + entry.events, 0);
  const chunks = other.reduce((sum, entry) => sum + entry.chunks, 0);
  const counted = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
  const texts = [events > 0 ? counted(events, 'event') : '', chunks > 0 ? counted(chunks, 'item chunk') : '']
    .filter((part) => part !== '')
    .join(' and ');
  return (
    `${texts} ${events + chunks === 1 ? 'has a vector' : 'have vectors'} of ${other.map((entry) => entry.model).join(', ')}, ` +
    `not of the configured ${configured}: meaning cannot find them until \`engram reindex\` and \`engram embed\` have run ` +
    '(compose still finds them by words and time)'
  );
}
