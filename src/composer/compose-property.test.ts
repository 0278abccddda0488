import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { assertPacket, type CommitTurnRequest, type Purpose } from '../index.js';
import { o200kTokenizer } from '../util/tokenizer.js';
import { scope, tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';
import { CANARY, usedWithin } from '../../test/helpers/compose-packets.js';

/** Validation paths an insight can take (each step allowed by the lifecycle). */
const INSIGHT_PATHS: ReadonlyArray<ReadonlyArray<'testing' | 'validated' | 'rejected'>> = [
  [],
  ['testing'],
  ['validated'],
  ['testing', 'validated'],
  ['rejected'],
  ['validated', 'rejected'],
];
const PURPOSES: Purpose[] = ['planner', 'tool', 'responder'];

let t: TempEngram;
beforeEach(async () => {
  t = await tempEngram();
});
afterEach(async () => {
  await t.cleanup();
});

describe('compose', () => {
  it('property: any store, budget, purpose, cue and insights gives a valid packet within budget, without secrets or unvalidated insights for responders', async () => {
    const words = ['atlas', 'venue', 'deadline', 'tea', '中文', '文档', 'budget', CANARY, 'vault', 'launch', 'ACME'];
    const sentence = fc
      .array(fc.constantFrom(...words), { minLength: 1, maxLength: 12 })
      .map((parts) => parts.join(' ') + '.');
    const turnArb = fc.record({
      text: fc.array(sentence, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(' ')),
      secret: fc.boolean(),
      role: fc.constantFrom('user' as const, 'assistant' as const),
      tool: fc.option(fc.dictionary(fc.constantFrom('venue', 'note', 'code'), sentence), { nil: undefined }),
    });
    let run = 0;
    t.engram.registerPolicy({
      policy_id: 'insights-in-responder',
      purposes: {
        responder: { allow_insights_in_responder: true, budget: { per_section: { insights: 300 } } },
        tool: { budget: { per_section: { insights: 200 } } },
      },
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(turnArb, { minLength: 0, maxLength: 8 }),
        fc.constantFrom(...PURPOSES),
        fc.integer({ min: 256, max: 3000 }),
        fc.option(
          fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 4 }).map((parts) => parts.join(' ')),
          { nil: undefined },
        ),
        fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
        fc.array(
          fc.record({
            type: fc.constantFrom('hypothesis' as const, 'strategy' as const, 'pattern' as const),
            path: fc.constantFrom(...INSIGHT_PATHS),
          }),
          { maxLength: 4 },
        ),
        fc.boolean(),
        fc.array(turnArb, { minLength: 0, maxLength: 4 }),
        async (turns, purpose, maxTokens, query, window, insights, allowInResponder, later) => {
          run += 1;
          const session = { ...scope, session_id: `prop-${run}`, run_id: `prop-run-${run}` };
          for (const [index, entry] of insights.entries()) {
            const added = await t.engram.insights.add({
              scope: { user_id: session.user_id, agent_id: session.agent_id, run_id: session.run_id },
              type: entry.type,
              statement: `insight ${index} about atlas`,
            });
            for (const state of entry.path) await t.engram.insights.update({ insight_id: added.id, state });
          }
          const turnsOf = (entries: typeof turns, prefix: string): CommitTurnRequest[] =>
            entries.map((entry, index) => ({
              scope: session,
              turn_id: `${prefix}-${index}`,
              messages: [
                {
                  role: entry.role,
                  content: entry.secret ? `${entry.text} ${CANARY}` : entry.text.replaceAll(CANARY, 'x'),
                  sensitivity: entry.secret ? 'secret' : 'normal',
                },
              ],
              ...(entry.tool === undefined
                ? {}
                : {
                    tool_results: [
                      {
                        tool_name: 'probe',
                        content: JSON.parse(JSON.stringify(entry.tool).replaceAll(CANARY, 'x')) as Record<
                          string,
                          unknown
                        >,
                      },
                    ],
                  }),
            }));
          if (turns.length > 0) await t.engram.commitTurns(turnsOf(turns, 'turn'));
          const packet = await t.engram.compose({
            scope: session,
            purpose,
            budget: { max_tokens: maxTokens },
            ...(query === undefined ? {} : { cues: { query } }),
            ...(window === undefined ? {} : { conversation_window: window }),
            ...(allowInResponder ? { policy_id: 'insights-in-responder' } : {}),
          });
          assertPacket(packet);
          usedWithin(packet);
          const injected = JSON.stringify([
            packet.short_term,
            packet.long_term,
            packet.insight,
            packet.citations,
            packet.explain,
            packet.budget_report,
          ]);
          expect(injected).not.toContain(CANARY);
          const shownInsights = [
            ...packet.insight.hypotheses,
            ...packet.insight.strategy_sketches,
            ...packet.insight.patterns,
          ];
          expect(shownInsights.every((item) => item.validation_state !== 'rejected')).toBe(true);
          if (purpose === 'responder') {
            // Never an unvalidated insight in a responder packet; validated ones only when the policy allows.
            expect(shownInsights.every((item) => item.validation_state === 'validated')).toBe(true);
            if (!allowInResponder) expect(shownInsights).toEqual([]);
            expect(packet.insight.usage_policy.allow_in_responder).toBe(allowInResponder);
            expect(packet.short_term.working_state).not.toHaveProperty('plan');
          }
          if (purpose === 'tool')
            expect(shownInsights.every((item) => item.validation_state === 'validated')).toBe(true);
          // Every live insight is either in the packet or explained as omitted.
          const live = insights.filter((entry) => entry.path.at(-1) !== 'rejected').length;
          const omittedInsights = packet.explain.omitted.filter((entry) => entry.item.startsWith('insights:')).length;
          expect(shownInsights.length + omittedInsights).toBe(live);
          // Replays byte-identically after the session moved on (later turns may make cue words common).
          t.clock.advance(1000);
          if (later.length > 0) await t.engram.commitTurns(turnsOf(later, 'later'));
          const replayed = await t.engram.builds.replay(packet.explain.determinism!['context_build_id'] as string);
          expect(replayed.identical).toBe(true);
          // The stored packet is the returned one, hash and all.
          expect(
            JSON.stringify(
              (await t.engram.builds.get(packet.explain.determinism!['context_build_id'] as string)).packet,
            ),
          ).toBe(JSON.stringify(packet));
          // Each selected text's real token count matches what was charged for the summary.
          expect(o200kTokenizer.count(packet.short_term.rolling_summary)).toBeLessThanOrEqual(
            packet.budget_report.section_usage['short_term_summary']!,
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});
