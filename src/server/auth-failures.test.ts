import { describe, expect, it } from 'vitest';

import { AuthFailures } from './auth-failures.js';

describe('AuthFailures', () => {
  it('blocks an address past its allowance until the window ends; other addresses are unaffected', () => {
    let now = 1_000_000;
    const failures = new AuthFailures({ max: 3, timeWindowMs: 60_000 }, () => now);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(failures.retryAfter('10.0.0.1', 'egk_guess')).toBe(0);
      failures.failed('10.0.0.1', 'egk_guess');
    }
    expect(failures.retryAfter('10.0.0.1', 'egk_guess')).toBe(60);
    expect(failures.retryAfter('10.0.0.1', null)).toBe(60);
    expect(failures.retryAfter('10.0.0.2', 'egk_guess')).toBe(0);
    now += 59_500;
    expect(failures.retryAfter('10.0.0.1', null)).toBe(1);
    now += 500;
    expect(failures.retryAfter('10.0.0.1', null)).toBe(0);
  });

  it('lets a key that verified lately through a block, until it fails once', () => {
    const failures = new AuthFailures({ max: 1, timeWindowMs: 60_000 });
    failures.succeeded('egk_good');
    failures.failed('10.0.0.1', 'egk_guess');
    expect(failures.retryAfter('10.0.0.1', 'egk_good')).toBe(0);
    expect(failures.retryAfter('10.0.0.1', 'egk_other')).toBeGreaterThan(0);
    failures.failed('10.0.0.1', 'egk_good');
    expect(failures.retryAfter('10.0.0.1', 'egk_good')).toBeGreaterThan(0);
  });
});
