// The one place where a store's read areas are checked and typed: every area method first checks
// the store is open, and a driver's failure (anything not an EngramError) becomes a StorageError
// naming the method, with the driver's error as its cause. Adapters hand over bare area objects.

import { EngramError, StorageError } from '../../spec/errors.js';
import type { StorageAreas } from '../../spec/storage.js';

export interface AreaGuard {
  /** Throws (a StorageError) when the store may no longer be used, for example once it is closed. */
  guard(): void;
}

/**
 * The same areas, every method guarded and its failures typed. A method returning a promise rejects
 * (never throws); exportRecords, which returns an async iterable, is checked when reading starts.
 *
 * @example
 * const areas = guardedAreas({ events, sessions, items, reviews, runs, service, maintenance }, { guard: () => this.guard() });
 * await areas.items.get('default', 'itm_1'); // StorageError 'items.get failed: …' on a driver error
 */
export function guardedAreas(areas: StorageAreas, options: AreaGuard): StorageAreas {
  const guarded: Record<string, Record<string, unknown>> = {};
  for (const [area, methods] of Object.entries(areas) as [string, object][]) {
    const wrapped: Record<string, unknown> = {};
    for (const method of methodNames(methods)) {
      const fn = (methods as Record<string, (...args: unknown[]) => unknown>)[method]!;
      wrapped[method] = guardedMethod(`${area}.${method}`, fn.bind(methods), options.guard);
    }
    guarded[area] = Object.freeze(wrapped);
  }
  return guarded as unknown as StorageAreas;
}

/** Every method of an area, own or inherited from its class (a plain object or a class instance). */
function methodNames(target: object): string[] {
  const names = new Set<string>();
  for (
    let proto: object | null = target;
    proto !== null && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name !== 'constructor' && typeof (target as Record<string, unknown>)[name] === 'function') names.add(name);
    }
  }
  return [...names];
}

/** A driver's failure as a StorageError naming the method; Engram's own errors pass unchanged. */
function typed(what: string, error: unknown): EngramError {
  if (EngramError.isInstance(error)) return error;
  return new StorageError(`${what} failed: ${(error as Error).message}`, { cause: error });
}

/**
 * The area methods that return an async iterable rather than a promise: guarded when reading starts,
 * so a closed store still hands back an iterable (whose first step fails), as the contract says.
 */
const STREAMS: ReadonlySet<string> = new Set(['maintenance.exportRecords']);

function guardedMethod(
  what: string,
  fn: (...args: unknown[]) => unknown,
  guard: () => void,
): (...args: unknown[]) => unknown {
  if (STREAMS.has(what))
    return (...args: unknown[]) => guardedIterable(what, () => fn(...args) as AsyncIterable<unknown>, guard);
  return (...args: unknown[]): Promise<unknown> => {
    try {
      guard();
      return Promise.resolve(fn(...args)).catch((error: unknown) => Promise.reject(typed(what, error)));
    } catch (error) {
      return Promise.reject(typed(what, error));
    }
  };
}

/** Checked when reading starts; the adapter's exporter checks again between its pages. */
async function* guardedIterable(
  what: string,
  open: () => AsyncIterable<unknown>,
  guard: () => void,
): AsyncGenerator<unknown> {
  try {
    guard();
    yield* open();
  } catch (error) {
    throw typed(what, error);
  }
}
