// The typed error a storage or library call must fail with: assertions for the conformance suites
// and for tests of code built on Engram.

import { expect } from 'vitest';

import { EngramError } from '../index.js';

/**
 * Awaits a call that must fail with an EngramError of `code` (and of `field`, when given); returns
 * the error for further checks.
 *
 * @example
 * const error = await expectCode(storage.write(ops), 'NOT_FOUND', 'item_id');
 */
export async function expectCode(promise: Promise<unknown>, code: string, field?: string): Promise<EngramError> {
  try {
    await promise;
  } catch (error) {
    expect(EngramError.isInstance(error)).toBe(true);
    expect((error as EngramError).code).toBe(code);
    if (field !== undefined) expect((error as EngramError).field).toBe(field);
    return error as EngramError;
  }
  return expect.fail(`expected ${code}, but the call succeeded`);
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
  if (!EngramError.isInstance(error)) return expect.fail(`expected an EngramError, got ${String(error)}`);
  return error;
}
