import { describe, expect, it } from 'vitest';

import { renderPacket, type MemoryPacket } from '../index.js';
import { scope, tempEngramEach } from '../../test/helpers/temp-engram.js';
import { seedSession, usedWithin } from '../../test/helpers/compose-packets.js';

const t = tempEngramEach();

const seed = () => seedSession(t.engram);

describe('compose', () => {
  it('places a dated event once: as a fact, not again as an episode', async () => {
    await t.engram.commitTurn({
      scope,
      turn_id: 'dated',
      ts: '2026-05-20T09:00:00.000Z',
      messages: [{ role: 'user', content: 'We launch Atlas on 2026-05-28.' }],
    });
    // A cue match makes it a fact; its date (past) makes it a recent episode too.
    const packet = await t.engram.compose({ scope, purpose: 'planner', cues: { query: 'Atlas launch' } });
    const fact = packet.long_term.facts.find((entry) => entry.fact_key.startsWith('event:'));
    expect(fact).toBeDefined();
    expect(packet.long_term.episodes.map((episode) => episode.episode_id)).not.toContain(fact!.fact_id);
    expect(packet.explain.omitted).toContainEqual(
      expect.objectContaining({ item: `episodes:${fact!.fact_id}`, reason: 'duplicate' }),
    );
  });

  it("keeps the user's own profile among the always-shown facts, however many newer profile items there are", async () => {
    await t.engram.commitTurn({ scope, turn_id: 'me', messages: [{ role: 'user', content: 'I live in Lisbon now.' }] });
    const writer = { user_id: scope.user_id, agent_id: scope.agent_id };
    for (let index = 0; index < 25; index += 1) {
      t.clock.advance(1000);
      await t.engram.items.remember({
        scope: writer,
        type: 'profile',
        key: `profile:notes.n${index}`,
        value: { subject: `notes.n${index}`, facts: [{ k: `n${index}`, v: `note ${index}` }] },
      });
    }
    const packet = await t.engram.compose({ scope, purpose: 'responder', cues: { query: 'anything' } });
    expect(packet.long_term.facts.map((fact) => fact.fact_key)).toContain('profile:user');
  });

  it("puts the user's own profile first in a responder's facts, before items the question's words match", async () => {
    await t.engram.commitTurn({
      scope,
      turn_id: 'home',
      messages: [{ role: 'user', content: 'Our flat in Milan is small but we love it.' }],
    });
    const writer = { user_id: scope.user_id, agent_id: scope.agent_id };
    // Dated events that share "live" with the question, each a longer line than the facts allowance holds many of.
    for (let index = 0; index < 12; index += 1) {
      t.clock.advance(1000);
      await t.engram.items.remember({
        scope: writer,
        type: 'events',
        key: `event:general:2026-0${1 + (index % 9)}-1${index % 10}:living_${index}`,
        value: {
          date: `2026-0${1 + (index % 9)}-1${index % 10}`,
          title: `Talked about how to live a healthier life with my running group, week ${index}, and the city parks we tried`,
        },
      });
    }
    const packet = await t.engram.compose({
      scope,
      purpose: 'responder',
      cues: { query: 'Which city do I live in?' },
      budget: { max_tokens: 500 },
    });
    const keys = packet.long_term.facts.map((fact) => fact.fact_key);
    expect(keys[0]).toBe('profile:user');
    expect(renderPacket(packet)).toContain('Milan');
    expect(keys.some((key) => key.startsWith('event:'))).toBe(true);
  });

  it('shows what is still to come, soonest first, whatever the query: in planner packets, and in responder packets with room', async () => {
    // The clock is at 2026-06-01: a trip and a workshop ahead, a task due later, one done, a meeting past.
    await t.engram.commitTurn({
      scope,
      turn_id: 'plans',
      ts: '2026-05-30T09:00:00.000Z',
      messages: [
        { role: 'user', content: 'My trip to Lisbon is on 2026-06-20. The design workshop is on 2026-06-10.' },
      ],
    });
    const writer = { user_id: scope.user_id, agent_id: scope.agent_id };
    await t.engram.items.remember({
      scope: writer,
      type: 'tasks',
      key: 'task:general:renew_passport',
      value: { task_id: 'renew_passport', title: 'Renew my passport', status: 'todo', due: '2026-06-15' },
    });
    await t.engram.items.remember({
      scope: writer,
      type: 'tasks',
      key: 'task:general:book_hotel',
      value: { task_id: 'book_hotel', title: 'Book the hotel', status: 'done', due: '2026-06-12' },
    });
    await t.engram.items.remember({
      scope: writer,
      type: 'events',
      key: 'event:general:2026-05-20:standup',
      value: { date: '2026-05-20', title: 'Team standup' },
    });

    const planner = await t.engram.compose({
      scope,
      purpose: 'planner',
      cues: { query: 'what should I cook tonight' },
    });
    const rendered = renderPacket(planner);
    const part = rendered.slice(
      rendered.indexOf('## Upcoming'),
      rendered.indexOf('\n\n', rendered.indexOf('## Upcoming')),
    );
    expect(part.split('\n').slice(1)).toHaveLength(3);
    const order = ['2026-06-10', 'Renew my passport', '2026-06-20'].map((text) => part.indexOf(text));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Done tasks and past events are not upcoming.
    expect(part).not.toContain('Book the hotel');
    expect(part).not.toContain('Team standup');
    const rules = planner.explain.selected.flatMap((line) => /ltm\.upcoming\([\d-]+\)/.exec(line) ?? []);
    expect(rules).toEqual(['ltm.upcoming(2026-06-10)', 'ltm.upcoming(2026-06-15)', 'ltm.upcoming(2026-06-20)']);

    // A responder shows them when its budget has room, and says why not when it has none.
    const roomy = await t.engram.compose({
      scope,
      purpose: 'responder',
      cues: { query: 'what should I cook tonight' },
      budget: { max_tokens: 3000 },
    });
    expect(renderPacket(roomy)).toContain('## Upcoming');
    const tight = await t.engram.compose({
      scope,
      purpose: 'responder',
      cues: { query: 'what should I cook tonight' },
      budget: { max_tokens: 256, per_section: { facts: 0 } },
    });
    expect(renderPacket(tight)).not.toContain('## Upcoming');
    expect(tight.explain.omitted.some((entry) => entry.section === 'facts' && entry.item.startsWith('facts:'))).toBe(
      true,
    );

    // Once the day has passed, it is no longer upcoming.
    t.clock.set('2026-06-11T08:00:00.000Z');
    const later = renderPacket(
      await t.engram.compose({ scope, purpose: 'planner', cues: { query: 'what should I cook tonight' } }),
    );
    const laterPart = later.slice(later.indexOf('## Upcoming'));
    expect(laterPart.split('\n\n')[0]).not.toContain('2026-06-10');
  });

  it('gives a question about the user’s present twice the facts allowance of one about the past, and keeps sections a request sets', async () => {
    await seed();
    const ask = (query: string, budget: Record<string, unknown> = { max_tokens: 1000 }) =>
      t.engram.compose({ scope, purpose: 'responder', cues: { query }, budget });
    const sections = (packet: MemoryPacket) => packet.meta.budget.per_section as Record<string, number>;
    const present = await ask('Which venue do I prefer now?');
    const past = await ask('Which venue did I prefer back then?');
    // The policy's split: twice the facts, taken from the summary section, the same total.
    expect(sections(present)['facts']).toBe(2 * sections(past)['facts']!);
    const total = (packet: MemoryPacket) => Object.values(sections(packet)).reduce((sum, tokens) => sum + tokens, 0);
    expect(total(present)).toBe(total(past));
    expect(present.budget_report.max_tokens).toBe(1000);
    // What the packet's sections could spend follows it.
    const lent = (packet: MemoryPacket) =>
      (packet.explain.filters['section_budgets'] as Record<string, number>)['facts']!;
    expect(lent(present)).toBeGreaterThan(lent(past));
    usedWithin(present);
    // A request that sets its own sections keeps them; a named policy can turn the shift off.
    const set = await ask('Which venue do I prefer now?', {
      max_tokens: 1000,
      per_section: { facts: 100, short_term_summary: 600 },
    });
    expect(sections(set)['facts']).toBe(
      sections(
        await ask('Which venue did I prefer back then?', {
          max_tokens: 1000,
          per_section: { facts: 100, short_term_summary: 600 },
        }),
      )['facts'],
    );
    t.engram.registerPolicy({ policy_id: 'flat', purposes: { responder: { present_facts: 1 } } });
    const flat = await t.engram.compose({
      scope,
      purpose: 'responder',
      policy_id: 'flat',
      cues: { query: 'Which venue do I prefer now?' },
      budget: { max_tokens: 1000 },
    });
    expect(sections(flat)['facts']).toBe(sections(past)['facts']);
    expect(() => t.engram.registerPolicy({ policy_id: 'bad', purposes: { responder: { present_facts: 9 } } })).toThrow(
      /purposes.responder.present_facts/,
    );
  });
});

describe('compose, the budget a section leaves unused', () => {
  it('gives the passages the tokens of a fact too long to place: they show as much as with no fact at all', async () => {
    const turns = [
      'The Lisbon apartment search is dragging on; we saw three flats in Alfama this week and all of them were too dark.',
      'Our landlord in Lisbon finally answered about the apartment: the lease can start in March if we sign by Friday.',
      'I measured the Lisbon apartment living room, four by five metres, so the old sofa and the piano both fit.',
      'The Lisbon apartment has a tiny balcony over the tram line, noisy in the morning but the light is lovely.',
      'My sister wants to visit the Lisbon apartment in April, so the spare room needs a bed before then.',
      'The Lisbon apartment deposit is two months of rent, which the bank transfers on Monday.',
    ];
    for (const [index, content] of turns.entries()) {
      t.clock.advance(60_000);
      await t.engram.commitTurn({ scope, turn_id: `flat-${index}`, messages: [{ role: 'user', content }] });
    }
    const ask = () =>
      t.engram.compose({
        scope: { ...scope, session_id: 'later' },
        purpose: 'responder',
        cues: { query: 'Lisbon apartment' },
        // 40 tokens for facts, fewer than the fact below takes in its shortest form.
        budget: {
          max_tokens: 300,
          per_section: {
            working_state: 0,
            short_term_summary: 230,
            facts: 40,
            procedures: 0,
            episodes: 0,
            insights: 0,
          },
        },
      });
    const quotes = (packet: MemoryPacket) => (packet.short_term.key_quotes ?? []).map((quote) => quote.quote);
    const without = await ask();
    await t.engram.items.remember({
      scope: { user_id: scope.user_id, agent_id: scope.agent_id },
      type: 'preferences',
      key: 'pref:housing:lisbon_apartment',
      value: {
        scope: 'housing',
        name: 'lisbon_apartment',
        value:
          'A Lisbon apartment with two bedrooms and a spare room for guests, a balcony facing south, good morning light in the kitchen, no tram or traffic noise at night, within a short walk of the river and of a market, a lift or at most two floors of stairs, room for a piano and a sofa, a landlord who answers within a week, and a lease of at least two years with rent fixed for the first one',
        priority: 0.8,
      },
    });
    const withFact = await ask();
    // The fact matches the cues but does not fit the facts section's tokens: it is left out...
    expect(withFact.long_term.facts).toEqual([]);
    expect(withFact.budget_report.omissions).toContainEqual(expect.objectContaining({ reason: 'over_budget' }));
    // ...and its section's tokens go to the passages, which show what they show without it.
    expect(quotes(withFact)).toEqual(quotes(without));
    expect(withFact.budget_report.used_tokens_est).toBe(without.budget_report.used_tokens_est);
  });
});
