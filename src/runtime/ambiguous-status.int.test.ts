// A done statement that fits several open tasks equally changes none of them: each reading waits in
// the review queue, and approving one closes that task alone. On a real SQLite file, through the
// library's public calls.

import { afterEach, describe, expect, it } from 'vitest';

import { tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';

const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
const reader = { user_id: 'mira', agent_id: 'assistant' };

describe('a status change with several readings', () => {
  let t: TempEngram;
  afterEach(async () => {
    await t?.cleanup();
  });

  async function say(turn: string, text: string) {
    return t.engram.commitTurn({
      scope,
      turn_id: turn,
      messages: [
        { role: 'user', content: text },
        { role: 'assistant', content: 'Noted.' },
      ],
    });
  }

  async function tasks() {
    const items = await t.engram.items.list({ scope: reader, types: ['tasks'] });
    return Object.fromEntries(items.map((item) => [item.key, item.value['status']]));
  }

  it('writes no reading, proposes each for review, and approving one closes that task only', async () => {
    t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    await say('t1', 'I need to renew the car insurance.');
    await say('t2', 'I also need to renew the home insurance.');
    const car = 'task:general:renew_car_insurance';
    const home = 'task:general:renew_home_insurance';
    expect(await tasks()).toEqual({ [car]: 'todo', [home]: 'todo' });

    const result = await say('t3', 'The insurance is renewed.');
    expect(result.items.filter((diff) => diff.type === 'tasks')).toEqual([]);
    expect(result.gate[0]!.reason).toContain('proposed for review');
    expect(await tasks()).toEqual({ [car]: 'todo', [home]: 'todo' });

    const keyOf = (candidate: { target: { write: string; key?: string } }) =>
      candidate.target.write === 'item' ? (candidate.target.key ?? '') : '';
    const pending = (await t.engram.review.list({ scope: reader, status: ['pending'] })).sort((a, b) =>
      keyOf(a).localeCompare(keyOf(b)),
    );
    // The target holds the value the approval leaves, so a reviewer reads which task it closes.
    expect(pending.map((candidate) => [candidate.kind, candidate.source, candidate.target])).toEqual([
      [
        'memory',
        'rules',
        {
          write: 'item',
          type: 'tasks',
          key: car,
          value: {
            project: 'general',
            task_id: 'renew_car_insurance',
            title: 'renew the car insurance',
            status: 'done',
          },
        },
      ],
      [
        'memory',
        'rules',
        {
          write: 'item',
          type: 'tasks',
          key: home,
          value: {
            project: 'general',
            task_id: 'renew_home_insurance',
            title: 'renew the home insurance',
            status: 'done',
          },
        },
      ],
    ]);
    expect(pending[0]!.item_ids).toHaveLength(1);
    expect(pending[0]!.payload['claim']).toBe(`${car} → status done`);
    expect(pending[0]!.source_event_ids).toEqual(
      result.events.filter((event) => event.role === 'human').map((event) => event.event_id),
    );

    await t.engram.review.approve({ candidate_id: pending[1]!.id, by: 'mira' });
    await t.engram.review.reject({ candidate_id: pending[0]!.id, by: 'mira', reason: 'the car one is still open' });
    expect(await tasks()).toEqual({ [car]: 'todo', [home]: 'done' });
  });

  it('closes the one task a statement names without asking', async () => {
    t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    await say('t1', 'I need to renew the car insurance.');
    await say('t2', 'I also need to book the dentist.');
    await say('t3', 'The car insurance is renewed.');
    expect(await tasks()).toEqual({ 'task:general:renew_car_insurance': 'done', 'task:general:book_dentist': 'todo' });
    expect(await t.engram.review.list({ scope: reader, status: ['pending'] })).toEqual([]);
  });
});
