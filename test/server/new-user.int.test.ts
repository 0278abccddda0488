// A new user's first weeks, replayed through HTTP as an agent would send it: a move, an allergy, a
// trip and a workshop ahead, a course the assistant books and then moves, a task made and then
// finished, and an assistant full of advice. A new
// session then asks what an agent needs to know, and each packet must hold the right current memory.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createClient } from '../../src/client/index.js';
import type { MemoryItem, MemoryPacket } from '../../src/index.js';
import { startHarness, type Harness, type Page } from './harness.js';

const user = { user_id: 'noor', agent_id: 'concierge' };
const session = (id: string) => ({ ...user, session_id: id, run_id: `${id}-run` });

/** The weeks as turns: each a user message and the assistant's reply, at the time it was said. */
const WEEK: ReadonlyArray<{ session: string; ts: string; user: string; assistant: string }> = [
  {
    session: 's0',
    ts: '2026-11-02T20:00:00.000Z',
    user: 'I live in Berlin and I work as a product designer.',
    assistant: 'Nice to meet you! How can I help?',
  },
  {
    session: 's1',
    ts: '2026-11-20T09:00:00.000Z',
    user: 'Hi! I moved from Berlin to Lisbon last week.',
    assistant: 'Welcome to Lisbon! You should try the pastéis de nata in Belém and take tram 28 early in the morning.',
  },
  {
    session: 's1',
    ts: '2026-11-20T09:02:00.000Z',
    user: "Quick thing for any recipes: I'm allergic to peanuts.",
    assistant: 'Noted. You could also keep an antihistamine in your bag, just in case.',
  },
  {
    session: 's1',
    ts: '2026-11-20T09:05:00.000Z',
    user: 'I need to renew my passport before the trip.',
    assistant: 'Good idea. Pack your wallet, cash and cards early, and take a few deep breaths if the queue is long.',
  },
  {
    session: 's2',
    ts: '2026-11-23T18:00:00.000Z',
    user: "I'm running a design workshop in Lisbon on 15 December.",
    assistant: 'Got it: design workshop, Lisbon, 15 December.',
  },
  {
    session: 's2',
    ts: '2026-11-23T18:03:00.000Z',
    user: 'And my trip to Porto is on 18 December.',
    assistant: 'Lovely. You might want to book the train a couple of weeks ahead.',
  },
  // A booking the assistant makes, and later moves: its records are the plan.
  {
    session: 's2',
    ts: '2026-11-23T18:05:00.000Z',
    user: 'Can you sign me up for the Red Cross one on 10 December?',
    assistant: 'Registered: Red Cross first aid refresher, Thu 10 December, 09:00–16:00, Lisbon.',
  },
  {
    session: 's3',
    ts: '2026-11-26T08:30:00.000Z',
    user: 'I renewed my passport yesterday, so the passport task is done.',
    assistant: 'Great, one thing off the list!',
  },
  {
    session: 's3',
    ts: '2026-11-26T08:32:00.000Z',
    user: 'I have a client visit on 10 December now, can you move the first aid course to the next date?',
    assistant: 'Done: moved to the Red Cross first aid refresher on Thu 17 December, 09:00–16:00.',
  },
];

describe('a new user, over HTTP', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    for (const [index, turn] of WEEK.entries()) {
      h.t.clock.set(turn.ts);
      const { status, body } = await h.call('POST', '/v1/turns', {
        key: h.keys.a.write,
        body: {
          scope: session(turn.session),
          turn_id: `turn-${index + 1}`,
          ts: turn.ts,
          messages: [
            { role: 'user', content: turn.user },
            { role: 'assistant', content: turn.assistant },
          ],
        },
      });
      expect(status, JSON.stringify(body)).toBe(200);
    }
    h.t.clock.set('2026-11-27T10:00:00.000Z');
  });
  afterAll(() => h.close());

  const compose = async (purpose: string, query: string, maxTokens = 1000) => {
    const { status, body } = await h.call<{ packet: MemoryPacket; text: string }>(
      'POST',
      '/v1/compose?render=markdown',
      {
        key: h.keys.a.read,
        body: { scope: session('s4'), purpose, cues: { query }, budget: { max_tokens: maxTokens } },
      },
    );
    expect(status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const items = async (query: string) =>
    (
      await h.call<Page<MemoryItem>>('GET', `/v1/items?user_id=${user.user_id}&agent_id=${user.agent_id}&${query}`, {
        key: h.keys.a.read,
      })
    ).body.items;

  it('knows where the user lives now, with the old city only as a superseded version', async () => {
    const { packet, text } = await compose('responder', 'which city do I live in now?');
    const location = packet.long_term.facts.filter((fact) => /location/.test(fact.notes ?? ''));
    expect(location.map((fact) => fact.notes)).toEqual([expect.stringContaining('location: Lisbon')]);
    expect(location[0]!.notes).not.toContain('Berlin');
    expect(text).toContain('location: Lisbon');
    const history = (
      await h.call<Page<MemoryItem>>(
        'GET',
        `/v1/items/history?user_id=${user.user_id}&agent_id=${user.agent_id}&key=profile:user`,
        { key: h.keys.a.read },
      )
    ).body.items;
    const current = history.filter((item) => item.status === 'active');
    expect(current).toHaveLength(1);
    expect(JSON.stringify(current[0]!.value)).not.toContain('Berlin');
    expect(history.some((item) => item.status === 'superseded' && JSON.stringify(item.value).includes('Berlin'))).toBe(
      true,
    );
  });

  it('names the allergy when asked what food to avoid', async () => {
    const { packet } = await compose('responder', 'what food should I avoid?');
    expect(packet.long_term.facts.some((fact) => /allergy.*peanut/i.test(fact.notes ?? ''))).toBe(true);
  });

  it('shows the planner the workshop and the trip, soonest first, and no open passport task', async () => {
    const { text } = await compose('planner', 'what is still open this week?', 2000);
    const upcoming = text.slice(text.indexOf('## Upcoming'), text.indexOf('\n\n', text.indexOf('## Upcoming')));
    expect(upcoming).toMatch(/2026-12-15.*workshop/i);
    expect(upcoming).toMatch(/2026-12-18.*Porto/i);
    expect(upcoming.indexOf('2026-12-15')).toBeLessThan(upcoming.indexOf('2026-12-18'));
    expect(text).not.toMatch(/Task \[todo\].*passport/i);
  });

  it('keeps the course the assistant booked on the day it moved it to, and not on the old one', async () => {
    const { text } = await compose('planner', 'what is still open this week?', 2000);
    expect(text).toMatch(/2026-12-17.*first aid refresher/);
    expect(text).not.toMatch(/2026-12-10.*first aid refresher/);
    const events = await items('types=events&status=active');
    expect(events.filter((event) => /refresher/.test(event.key)).map((event) => event.value['date'])).toEqual([
      '2026-12-17',
    ]);
  });

  it('closes the passport task instead of opening new ones, and keeps none of the advice', async () => {
    const tasks = await items('types=tasks&status=active');
    const passport = tasks.filter((task) => /passport/i.test(String(task.value['title'])));
    expect(passport.map((task) => task.value['status'])).toEqual(['done']);
    // The assistant's suggestions never became the user's tasks, preferences or facts.
    const all = await items('status=active');
    const advice = all.filter((item) =>
      /wallet|deep breath|antihistamine|nata|tram|train/i.test(JSON.stringify(item.value)),
    );
    expect(advice.map((item) => item.key)).toEqual([]);
  });

  it("lets an admin re-extract the user over HTTP: nothing to change where today's rules wrote everything", async () => {
    const admin = createClient({ baseUrl: h.url, apiKey: h.keys.a.admin });
    const result = await admin.items.reextract({ user_id: user.user_id, dry_run: true });
    expect(result).toMatchObject({ user_id: user.user_id, turns: WEEK.length, dry_run: true, items: [] });
    const denied = await h.call('POST', '/v1/items/reextract', {
      key: h.keys.a.write,
      body: { user_id: user.user_id },
    });
    expect(denied.status).toBe(403);
    const bad = await h.call('POST', '/v1/items/reextract', {
      key: h.keys.a.admin,
      body: { user_id: user.user_id, dry_run: 'yes' },
    });
    expect(bad.body).toMatchObject({ code: 'VALIDATION_FAILED', field: 'dry_run' });
  });
});
