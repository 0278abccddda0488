import { describe, expect, it } from 'vitest';

import { assertBuildBound, buildBytes, MAX_BUILD_BYTES } from './build-bound.js';

describe('the bound of a stored context build', () => {
  it('counts the UTF-8 bytes of the packet JSON and the request together', () => {
    expect(buildBytes('{"a":"é"}', { q: '中' })).toBe(10 + 11);
    expect(buildBytes('{}', undefined)).toBe(2);
  });

  it('lets a build up to the bound through and refuses a larger one on budget.max_tokens (max_build_bytes)', () => {
    const request = { scope: { user_id: 'u' } };
    const room = MAX_BUILD_BYTES - buildBytes('', request);
    expect(() => assertBuildBound('x'.repeat(room), request)).not.toThrow();
    expect(() => assertBuildBound('x'.repeat(room + 1), request)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', field: 'budget.max_tokens', rule: 'max_build_bytes' }),
    );
  });
});
