import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { MemoryPacket } from '../spec/packet.js';
import { withAdjacentTurns } from './cue-passages.js';

import { scope, tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';

let t: TempEngram;
beforeEach(async () => {
  t = await tempEngram();
});
afterEach(async () => {
  await t.cleanup();
});

/** The event filters a compose of the test scope reads neighbours with. */
const NEIGHBOUR_BASE = {
  tenant_id: 'default',
  user_id: scope.user_id,
  agent_id: scope.agent_id!,
  now: '2100-01-01T00:00:00.000Z',
  exclude_sensitivity: ['secret' as const],
};

/** One message per turn, in order, as a conversation is committed. */
async function say(
  lines: ReadonlyArray<[role: 'user' | 'assistant', content: string, secret?: boolean]>,
  session = scope.session_id,
): Promise<string[]> {
  const ids: string[] = [];
  for (const [index, [role, content, secret]] of lines.entries()) {
    const result = await t.engram.commitTurn({
      scope: { ...scope, session_id: session },
      turn_id: `${session}-${index}`,
      messages: [{ role, content, ...(secret === true ? { sensitivity: 'secret' as const } : {}) }],
    });
    ids.push(result.events[0]!.event_id);
  }
  return ids;
}

describe('cue passages next to the best matches', () => {
  it('offers the reply to a matching question although it shares no word with the cues', async () => {
    const ids = await say([
      ['user', 'Good morning!'],
      ['assistant', 'Which pottery class did you sign up for in the end?'],
      ['user', 'The Thursday evening one at the community studio.'],
      ['assistant', 'Lovely, enjoy it.'],
    ]);
    const packet = await t.engram.compose({
      scope: { ...scope, session_id: 'later' },
      purpose: 'responder',
      cues: { query: 'pottery class' },
    });
    const quoted = (packet.short_term.key_quotes ?? []).map((quote) => quote.evidence_id);
    // The match first, then its neighbours: the answer after it and the greeting before it.
    expect(quoted.slice(0, 1)).toEqual([ids[1]]);
    expect(quoted).toContain(ids[2]);
    expect(packet.explain.selected).toContain(`key_quotes:${ids[2]}: cue.answer(to rank 1)`);
    expect(packet.explain.selected).toContain(`key_quotes:${ids[0]}: cue.adjacent_turn(next to rank 1)`);
  });

  it("ranks the user's answer to the assistant's question about the cues as the user's own match, ahead of the question", async () => {
    const ids = await say([
      ['assistant', 'Which pottery class did you sign up for in the end?'],
      ['user', 'The Thursday evening one at the community studio.'],
    ]);
    const weak = await say(
      [['user', 'My yoga class ran late again today, so I skipped the gym and went straight home.']],
      'other',
    );
    // In the first person: the user's own words go first, the assistant's question counts half.
    const packet = await t.engram.compose({
      scope: { ...scope, session_id: 'later' },
      purpose: 'responder',
      cues: { query: 'which pottery class did I choose?' },
    });
    const quoted = (packet.short_term.key_quotes ?? []).map((quote) => quote.evidence_id);
    // As a plain neighbour it ranked at a quarter of the question's score, behind the question.
    expect(quoted).toEqual([ids[1], ids[0], weak[0]]);
    expect(packet.explain.selected).toContain(`key_quotes:${ids[1]}: cue.answer(to rank 1)`);
  });

  it("does not take a question for one about the cues because it names the question's speaker", async () => {
    const lines: Array<[string, string]> = [
      ['Melanie', 'How was your week, Caroline?'],
      [
        'Caroline',
        'Busy, mostly at work, with long meetings every single day and a deadline on Friday that kept the whole team there late.',
      ],
    ];
    const ids: string[] = [];
    for (const [index, [speaker, content]] of lines.entries()) {
      const result = await t.engram.commitTurn({
        scope,
        turn_id: `named-${index}`,
        messages: [{ role: index === 0 ? 'assistant' : 'user', speaker, content }],
      });
      ids.push(result.events[0]!.event_id);
    }
    const packet = await t.engram.compose({
      scope: { ...scope, session_id: 'later' },
      purpose: 'responder',
      cues: { query: 'Where did Caroline go swimming?' },
    });
    // Her reply ranks by its own words (her name is indexed with them), not as an answer.
    expect(packet.explain.selected.find((line) => line.startsWith(`key_quotes:${ids[1]}:`))).toMatch(/: cue\.hybrid\(/);
  });

  it('keeps the turn after a question about something else a plain neighbour', async () => {
    const ids = await say([
      ['assistant', 'Your pottery class moved to Thursday. Shall I put it in your calendar?'],
      ['user', 'Sure, go ahead.'],
    ]);
    const packet = await t.engram.compose({
      scope: { ...scope, session_id: 'later' },
      purpose: 'responder',
      cues: { query: 'pottery class' },
    });
    expect(packet.explain.selected).toContain(`key_quotes:${ids[1]}: cue.adjacent_turn(next to rank 1)`);
  });

  it('shows a long passage by its snippet: the sentence that matches the question and the answer after it', async () => {
    const filler =
      'We had dinner after, and the kids stayed up far too late, so the whole family is tired today but happy.';
    const long = `Thanks, Caroline! The concert for my daughter's birthday was amazing. It was Matt Patterson, he is so talented! ${filler} ${filler} ${filler} ${filler} ${filler}`;
    await t.engram.commitTurn({
      scope,
      turn_id: 'mel',
      messages: [{ role: 'assistant', speaker: 'Melanie', content: long }],
    });
    const packet = await t.engram.compose({
      scope: { ...scope, session_id: 'later' },
      purpose: 'responder',
      cues: { query: "Who performed at the concert at Melanie's daughter's birthday?" },
      budget: { max_tokens: 256 },
    });
    const quote = (packet.short_term.key_quotes ?? [])[0]?.quote ?? '';
    // The sentence that names the concert, the answer after it, and no more than 40 words in all.
    expect(quote).toContain("The concert for my daughter's birthday was amazing. It was Matt Patterson");
    expect(quote.split(' ').length).toBeLessThanOrEqual(40);
  });

  it('shows the further passages past the first five by shorter snippets, so more of them fit', async () => {
    const filler =
      'We talked for a long while about glazes, kilns, wheel speeds, trimming tools and how the studio schedules its firings.';
    for (let index = 0; index < 24; index += 1)
      await say([['user', `Pottery night ${index} was fun. ${filler} ${filler}`]], `s${index}`);
    const packet = await t.engram.compose({
      scope: { ...scope, session_id: 'later' },
      purpose: 'responder',
      cues: { query: 'pottery night' },
      budget: { max_tokens: 4000 },
    });
    const lengths = (packet.short_term.key_quotes ?? []).map((quote) => quote.quote.split(' ').length);
    expect(lengths).toHaveLength(24);
    // The ten top passages whole (5 + 20 + 20 words), the next five by a 40-word snippet (the
    // sentence that matches and the next), the rest by a 20-word one (the sentence that matches).
    expect(lengths).toEqual([...Array(10).fill(45), ...Array(5).fill(25), ...Array(9).fill(5)]);
  });

  it('never shows a responder a passage as a bare reference: one that does not fit as text is left out', async () => {
    const filler =
      'We talked for a long while about glazes, kilns, wheel speeds, trimming tools and how the studio schedules its firings every other week.';
    for (let index = 0; index < 12; index += 1)
      await say([['user', `Pottery night ${index}: ${filler} ${filler}`]], `s${index}`);
    const responder = await t.engram.compose({
      scope: { ...scope, session_id: 'later' },
      purpose: 'responder',
      cues: { query: 'pottery night' },
      budget: { max_tokens: 256 },
    });
    expect((responder.short_term.key_quotes ?? []).length).toBeGreaterThan(0);
    expect((responder.short_term.key_quotes ?? []).every((quote) => quote.quote !== '')).toBe(true);
    expect(responder.budget_report.degradations.filter((step) => step.action.endsWith('→ref'))).toEqual([]);
  });

  it('ranks a neighbour of a strong match above a weak match, and never offers a secret neighbour', async () => {
    const ids = await say([
      ['user', 'my locker code is 4417', true],
      ['user', 'Did the pottery class at the studio start on time?'],
      ['assistant', 'Yes, right at seven.'],
    ]);
    const weak = await say([['user', 'I walked past a studio today.']], 'other');
    const packet = await t.engram.compose({
      scope: { ...scope, session_id: 'later' },
      purpose: 'responder',
      cues: { query: 'pottery class studio' },
    });
    const quoted = (packet.short_term.key_quotes ?? []).map((quote) => quote.evidence_id);
    expect(quoted.indexOf(ids[2]!)).toBeGreaterThan(quoted.indexOf(ids[1]!));
    expect(quoted.indexOf(ids[2]!)).toBeLessThan(quoted.indexOf(weak[0]!));
    expect(quoted).not.toContain(ids[0]);
    expect(JSON.stringify(packet)).not.toContain('locker');
  });

  it('replays a packet with the neighbours it had, not those written after it', async () => {
    await say([['user', 'Which pottery class is best?']]);
    const later = { ...scope, session_id: 'later' };
    const packet = await t.engram.compose({ scope: later, purpose: 'responder', cues: { query: 'pottery' } });
    t.clock.advance(1000);
    const reply = await t.engram.commitTurn({
      scope,
      turn_id: 'reply',
      messages: [{ role: 'assistant', content: 'The Thursday one.' }],
    });
    const now = await t.engram.compose({ scope: later, purpose: 'responder', cues: { query: 'pottery' } });
    expect((now.short_term.key_quotes ?? []).map((quote) => quote.evidence_id)).toContain(reply.events[0]!.event_id);
    const replayed = await t.engram.builds.replay(String(packet.explain.determinism?.['context_build_id']));
    expect(replayed.identical).toBe(true);
    expect(JSON.stringify(replayed.packet)).not.toContain(reply.events[0]!.event_id);
  });
});

/** A responder packet for a query, asked in a later session, with the ids of the passages it quotes in order. */
async function ask(query: string) {
  const packet = await t.engram.compose({
    scope: { ...scope, session_id: 'later' },
    purpose: 'responder',
    cues: { query },
  });
  return { packet, quoted: (packet.short_term.key_quotes ?? []).map((quote) => quote.evidence_id) };
}

/** The rule a packet gives for a passage. */
function ruleOf(packet: MemoryPacket, id: string): string | undefined {
  return packet.explain.selected.find((line) => line.startsWith(`key_quotes:${id}:`));
}

describe('a match that asks', () => {
  it('ranks a turn that states what the cues name above a better match that only asks about it, and says why', async () => {
    const [asking] = await say(
      [['assistant', 'How is the pottery class going? Is the pottery class still on Thursdays?']],
      'a',
    );
    const [stating] = await say([['user', 'My pottery class moved to Friday evenings.']], 'b');
    const { packet, quoted } = await ask('pottery class');
    expect(quoted.slice(0, 2)).toEqual([stating, asking]);
    expect(ruleOf(packet, asking!)).toMatch(/[;,] asks ×0\.7\)$/u);
  });

  it('keeps the score of a question that speaks of its speaker: a request to the assistant tells about the user', async () => {
    const [request] = await say(
      [['user', 'Can you suggest a thank-you gift for my pottery class teacher? The pottery class ends soon.']],
      'a',
    );
    const [plain] = await say([['assistant', 'Is the pottery class still on Thursdays?']], 'b');
    const { packet } = await ask('pottery class');
    expect(ruleOf(packet, request!)).not.toMatch(/asks/u);
    expect(ruleOf(packet, plain!)).toMatch(/[;,] asks ×0\.7\)$/u);
  });
});

describe('a question asking when', () => {
  it('ranks a match that says when above a better match that does not, and says why', async () => {
    const [rewarding] = await say(
      [['user', 'The charity race for mental health was so rewarding; the charity race crowd cheered the whole race.']],
      'a',
    );
    const [dated] = await say([['user', 'I ran a charity race last Saturday.']], 'b');
    // Asked what, the turn that says "charity race" most goes first.
    expect((await ask('What was the charity race like?')).quoted.slice(0, 2)).toEqual([rewarding, dated]);
    const { packet, quoted } = await ask('When was the charity race?');
    expect(quoted.slice(0, 2)).toEqual([dated, rewarding]);
    expect(ruleOf(packet, dated!)).toMatch(/[;,] says when ×2\.5\)$/u);
  });
});

describe('turns around the matches', () => {
  it('ranks a turn between two matches above a turn next to one of them', async () => {
    const ids = await say([
      ['user', 'We finally booked the trip to Porto.'],
      ['assistant', 'How exciting! When do you leave?'],
      ['user', 'In three weeks, right after my sister visits.'],
      ['assistant', 'Porto in spring is lovely.'],
      ['user', 'Anything else?'],
    ]);
    const packet = await t.engram.compose({
      scope: { ...scope, session_id: 'later' },
      purpose: 'responder',
      cues: { query: 'trip to Porto' },
    });
    const quoted = (packet.short_term.key_quotes ?? []).map((quote) => quote.evidence_id);
    // The turn between the two matches (two after the first, right before the second) gains from
    // both: above the second match's own score, and above the turns next to one match only.
    expect(quoted).toEqual([ids[0], ids[2], ids[3], ids[1], ids[4]]);
    expect(packet.explain.selected).toContain(`key_quotes:${ids[2]}: cue.adjacent_turn(two after rank 1; also rank 2)`);
    expect(packet.explain.selected).toContain(`key_quotes:${ids[3]}: cue.hybrid(words #2)`);
  });

  it('keeps the best match first when a run of weaker matches lends each other more than it scores', async () => {
    // Twenty-five evenings of pasta, each matching a little; the one turn that answers matches best.
    const run = await say(
      Array.from({ length: 25 }, (_, day): ['user', string] => [
        'user',
        `Made pasta for dinner again, evening ${day}.`,
      ]),
      'april',
    );
    const [lone] = await say([['user', 'Last month I baked sourdough for the first time.']], 'march');
    const events = await t.storage.events.list({
      tenant_id: 'default',
      ids: [...run, lone!],
      now: '2100-01-01T00:00:00.000Z',
      limit: 26,
    });
    const byId = new Map(events.map((event) => [event.id, event]));
    const hits = [
      { event: byId.get(lone!)!, score: 1, rule: 'cue.hybrid(meaning #1)' },
      ...run.map((id, index) => ({ event: byId.get(id)!, score: 0.6, rule: `cue.hybrid(meaning #${index + 2})` })),
    ];
    const passages = await withAdjacentTurns(t.storage, hits, NEIGHBOUR_BASE, 20, 26, { terms: [], subject: null });
    // A pasta turn inside the run is lent 0.4 × 0.6 by each of three neighbours: 1.32 against 1.
    expect(passages[0]!.event.id).toBe(lone);
    expect(passages[0]!.rule).toBe('cue.hybrid(meaning #1; best match first)');
    expect(passages.slice(1).map((passage) => passage.event.id)).toEqual(expect.arrayContaining(run.slice(0, 19)));
  });

  it('property: every passage is a match or a turn around a lending match, and a shorter list is the start of a longer one', async () => {
    const ids: string[] = [];
    // Every third turn asks about the cue term, so some neighbours rank as answers.
    const line = (index: number, session: string) =>
      index % 3 === 0 ? `is turn ${index} of ${session} done?` : `turn ${index} of ${session}`;
    for (const session of ['a', 'b', 'c'])
      ids.push(
        ...(await say(
          Array.from({ length: 8 }, (_, index): ['user' | 'assistant', string] => [
            index % 2 === 0 ? 'user' : 'assistant',
            line(index, session),
          ]),
          session,
        )),
      );
    const events = await t.storage.events.list({
      tenant_id: 'default',
      ids,
      now: '2100-01-01T00:00:00.000Z',
      limit: ids.length,
    });
    // Whose turns count in full, and the word the questions ask about.
    const cues = { terms: ['turn'], subject: { role: 'user' as const } };
    const position = new Map(events.map((event) => [event.id, ids.indexOf(event.id)]));
    const sameSession = (a: string, b: string) => Math.floor(position.get(a)! / 8) === Math.floor(position.get(b)! / 8);
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray(events, { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 12, maxLength: 12 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 14 }),
        async (chosen, points, depth, limit) => {
          // Hits as a search ranks them: best first.
          const hits = chosen
            .map((event, index) => ({ event, score: points[index]! / 4, rule: 'cue.hybrid(words #1)' }))
            .sort((a, b) => b.score - a.score);
          const passages = await withAdjacentTurns(t.storage, hits, NEIGHBOUR_BASE, depth, limit, cues);
          const longer = await withAdjacentTurns(t.storage, hits, NEIGHBOUR_BASE, depth, limit + 10, cues);
          expect(passages.map((passage) => passage.event.id)).toEqual(
            longer.slice(0, limit).map((passage) => passage.event.id),
          );
          const lenders = hits.slice(0, depth).map((hit) => hit.event.id);
          // Before, after or two after a lending match, in its session.
          const around = (id: string) =>
            lenders.some((lender) => {
              const gap = position.get(id)! - position.get(lender)!;
              return sameSession(lender, id) && gap >= -1 && gap <= 2 && gap !== 0;
            });
          for (const { event, rule } of longer) {
            if (hits.some((hit) => hit.event.id === event.id))
              // A match with a lending match around it says so.
              expect(rule.includes('; context of rank')).toBe(around(event.id));
            else expect(around(event.id)).toBe(true);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
