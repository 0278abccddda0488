// The typed error a storage or library call must fail with.

import { expect } from 'vitest';

import { EngramError } from '../../src/index.js';

/**
 * Awaits a call that must fail with an EngramError of `code`; returns the error (to check its field).
 *
 * @example
 * const error = await expectCode(storage.write(ops), 'NOT_FOUND');
 */
export async function expectCode(promise: Promise<unknown>, code: string): Promise<EngramError> {
  try {
    await promise;
  } catch (error) {
    expect(EngramError.isInstance(error)).toBe(true);
    expect((error as EngramError).code).toBe(code);
    return error as EngramError;
  }
  throw new Error(`expected ${code}, but the call succeeded`);
}

/**
 * Awaits a call that must fail with an EngramError (any code) and returns it, for checks of its
 * code, field and message together.
 *
 * @example
 * expect(await caught(model.doEmbed({ values: [] }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'values' });
 */
export async function caught(promise: Promise<unknown>): Promise<EngramError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!EngramError.isInstance(error)) throw new Error(`expected an EngramError, got ${String(error)}`);
  return error;
}
