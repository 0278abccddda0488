// Failed authentication, limited by client address: past the allowance an address is answered
// 429 before its key is even looked up, so a flood of guessed keys costs no store reads. Keys that
// verified recently still pass (and are verified as usual), so one bad client does not lock out
// the good ones behind the same address.

import { createHash } from 'node:crypto';

import { LRUCache } from 'lru-cache';

/** The allowance: failures per address per window. */
export interface FailureAllowance {
  max: number;
  timeWindowMs: number;
}

interface Window {
  failures: number;
  endsAt: number;
}

/** How many addresses and good keys are remembered (oldest forgotten first). */
const ADDRESSES = 10_000;
const GOOD_KEYS = 1_000;

const digest = (secret: string): string => createHash('sha256').update(secret).digest('base64url');

/**
 * Counts failed authentications per address in fixed windows, and remembers which keys (by their
 * SHA-256) verified lately. One per server process: each process keeps its own counts.
 *
 * @example
 * const failures = new AuthFailures({ max: 20, timeWindowMs: 60_000 });
 * if (failures.retryAfter(request.ip, key) > 0) … // 429
 */
export class AuthFailures {
  private readonly windows = new LRUCache<string, Window>({ max: ADDRESSES });
  private readonly goodKeys = new LRUCache<string, true>({ max: GOOD_KEYS });

  constructor(
    readonly allowance: FailureAllowance,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Seconds until the address may try again, or 0 when it may try now. A key that verified
   * lately may always try (it is verified again, so a revoked one still fails).
   */
  retryAfter(address: string, key: string | null): number {
    const window = this.windows.get(address);
    if (window === undefined || window.endsAt <= this.now() || window.failures < this.allowance.max) return 0;
    if (key !== null && this.goodKeys.has(digest(key))) return 0;
    return Math.max(1, Math.ceil((window.endsAt - this.now()) / 1000));
  }

  /** Counts a failed authentication from the address; the key, if it was a good one, is good no more. */
  failed(address: string, key: string | null): void {
    if (key !== null) this.goodKeys.delete(digest(key));
    const now = this.now();
    const window = this.windows.get(address);
    if (window === undefined || window.endsAt <= now)
      this.windows.set(address, { failures: 1, endsAt: now + this.allowance.timeWindowMs });
    else window.failures += 1;
  }

  /** Remembers a key that verified. */
  succeeded(key: string): void {
    this.goodKeys.set(digest(key), true);
  }
}
