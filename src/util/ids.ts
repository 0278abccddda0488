// Identifiers: prefixed, monotonic ULIDs (`evt_01J…`), and the deterministic evidence id that names
// a span of a chunk of a corpus, so the same evidence always gets the same id.

import { createHash, randomFillSync } from 'node:crypto';
import { decodeTime, monotonicFactory } from 'ulid';

/** The id prefixes of DESIGN §1. */
export type IdPrefix = 'evt' | 'mem' | 'cand' | 'ins' | 'epi' | 'snp' | 'ctx' | 'run' | 'trc' | 'trn' | 'key';

// Cryptographic randomness drawn from a pooled buffer: one system call per 1,024 values instead of
// one per character of every new ULID.
const pool = new Uint32Array(1024);
let poolIndex = pool.length;
function pooledRandom(): number {
  if (poolIndex >= pool.length) {
    randomFillSync(pool);
    poolIndex = 0;
  }
  return pool[poolIndex++]! / 0x1_0000_0000;
}

const nextUlid = monotonicFactory(pooledRandom);
const ULID_BODY = '[0-9A-HJKMNP-TV-Z]{26}';

/**
 * A new id with the given prefix; ids made in one process sort in creation order.
 *
 * @example
 * newId('evt') // 'evt_01JD3Q…'
 */
export function newId(prefix: IdPrefix, timeMs?: number): string {
  return `${prefix}_${nextUlid(timeMs)}`;
}

/**
 * The time (ms since the epoch) a prefixed ULID was made for.
 *
 * @example
 * idTime(newId('evt', 1_700_000_000_000)) // 1700000000000
 */
export function idTime(id: string): number {
  return decodeTime(id.slice(id.indexOf('_') + 1));
}

/**
 * True when `value` is an id of that prefix.
 *
 * @example
 * isId('evt', 'evt_01JD3QW7V5M8X3N6K9P2R4T6Y8') // true
 */
export function isId(prefix: IdPrefix, value: string): boolean {
  return new RegExp(`^${prefix}_${ULID_BODY}$`).test(value);
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function crockford(bytes: Uint8Array, length: number): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      out += CROCKFORD[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
    if (out.length >= length) break;
  }
  return out;
}

/** Where a piece of evidence is: a span of characters of one chunk of one corpus or index. */
export interface EvidenceLocator {
  /** The corpus or index id; events are the corpus `events`. */
  corpus: string;
  chunk_id: string;
  /** Character offsets `[start, end)` inside the chunk. */
  span: readonly [number, number];
  /** The quoted text, when the evidence is a quote: its hash is part of the id. */
  quote?: string;
}

/**
 * The deterministic id of a piece of evidence: the same locator always gives the same id, and two
 * corpora never collide because the corpus is part of the hash.
 *
 * @example
 * evidenceId({ corpus: 'events', chunk_id: 'evt_01J…', span: [0, 42] }) // 'evd_…'
 */
export function evidenceId(locator: EvidenceLocator): string {
  const quoteHash = locator.quote === undefined ? '' : sha256(locator.quote);
  const material = JSON.stringify([locator.corpus, locator.chunk_id, locator.span[0], locator.span[1], quoteHash]);
  return `evd_${crockford(createHash('sha256').update(material).digest(), 26)}`;
}

/**
 * Hex SHA-256 of a string.
 *
 * @example
 * sha256('abc').length // 64
 */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
