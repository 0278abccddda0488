import { describe, expect, it } from 'vitest';

import { EngramError } from '../../spec/errors.js';
import { BoundedLane } from './bounded-lane.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('BoundedLane', () => {
  it('lets `capacity` callers in at once and the others in order as places free', async () => {
    const lane = new BoundedLane('background', 2, 10_000);
    const order: string[] = [];
    const leaveA = await lane.enter();
    const leaveB = await lane.enter();
    const c = lane.enter().then((leave) => (order.push('c'), leave));
    const d = lane.enter().then((leave) => (order.push('d'), leave));
    await tick();
    expect(order).toEqual([]);
    expect(lane.queued).toBe(2);
    leaveA();
    leaveA(); // A second leave does not free a second place.
    await tick();
    expect(order).toEqual(['c']);
    leaveB();
    await tick();
    expect(order).toEqual(['c', 'd']);
    (await c)();
    (await d)();
    // All places are free again.
    await Promise.all([lane.enter(), lane.enter()]);
  });

  it('refuses a caller whose wait passes the deadline with a typed error naming the lane', async () => {
    const lane = new BoundedLane('interactive', 1, 50);
    const leave = await lane.enter();
    const error = await lane.enter().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(EngramError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'OVERLOADED',
      field: 'embeddings',
      details: { reason: 'queue_full', lane: 'interactive' },
    });
    expect((error as EngramError).message).toMatch(/interactive queue stayed full/);
    expect(lane.queued).toBe(0);
    leave();
    (await lane.enter())();
  });

  it('lets an aborted caller go without taking a place', async () => {
    const lane = new BoundedLane('background', 1, 10_000);
    const leave = await lane.enter();
    const controller = new AbortController();
    const waiting = lane.enter(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(lane.queued).toBe(0);
    leave();
    const next = await lane.enter();
    next();
    await expect(lane.enter(AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
  });
});
