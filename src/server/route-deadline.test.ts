import { describe, expect, it } from 'vitest';

import { HttpError } from './http-error.js';
import { withProgressDeadline } from './route-kit.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isTimeout = (error: unknown) => HttpError.isInstance(error) && error.code === 'TIMEOUT';

describe('withProgressDeadline', () => {
  it('lets work run many times the deadline while it reports progress', async () => {
    const work = async (progress: () => void) => {
      for (let step = 0; step < 10; step += 1) {
        await sleep(20);
        progress();
      }
      return 'done';
    };
    await expect(withProgressDeadline(work, 60)).resolves.toBe('done');
  });

  it('answers TIMEOUT once the work goes the deadline without progress', async () => {
    const started = Date.now();
    const work = async (progress: () => void) => {
      progress();
      await sleep(40);
      progress();
      await sleep(1000);
      return 'late';
    };
    await expect(withProgressDeadline(work, 100)).rejects.toSatisfy(isTimeout);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(130);
    expect(elapsed).toBeLessThan(600);
  });

  it('passes the work’s own failure through', async () => {
    await expect(withProgressDeadline(async () => Promise.reject(new Error('broken')), 100)).rejects.toThrow('broken');
  });
});
