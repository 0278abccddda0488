import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { CommitTurnRequest, Marker } from '../index.js';
import { checkSnapshot } from '../spec/validators.js';
import { NARRATIVE_HEADINGS } from '../compaction/narrative.js';
import { tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';

const scope = { user_id: 'mira', agent_id: 'researcher', session_id: 's1', run_id: 'r1' };
const run = { user_id: 'mira', agent_id: 'researcher', run_id: 'r1' };
const STEP: Marker[] = ['PLAN_DONE', 'ACT_DONE', 'OBSERVE_DONE', 'STEP_DONE'];

describe('compaction of a long run', () => {
  let t: TempEngram;
  let turn = 0;
  beforeEach(async () => {
    t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    turn = 0;
  });
  afterEach(() => t.cleanup());

  const commit = (extra: Partial<CommitTurnRequest>) => {
    t.clock.advance(1000);
    turn += 1;
    return t.engram.commitTurn({ scope, turn_id: `t${turn}`, ...extra } as CommitTurnRequest);
  };

  /** The run's start: objective, done definition and a verified claim backed by a tool result. */
  async function start() {
    const search = await commit({
      messages: [{ role: 'user', content: 'Find the launch date of Atlas.' }],
      tool_results: [{ tool_name: 'search', content: 'Atlas launches on 2026-06-12 according to the release plan.' }],
    });
    const toolEvent = search.events.find((event) => event.kind === 'tool_result')!.event_id;
    await commit({
      run: {
        objective: 'Find the Atlas launch date',
        done_definition: { answer: 'a date with a source' },
        claims: [
          {
            claim_id: 'c1',
            status: 'verified',
            statement: 'Atlas launches on 2026-06-12.',
            evidence: [{ event_id: toolEvent, quote: 'Atlas launches on 2026-06-12' }],
          },
        ],
        open_questions: { add: ['Is the date confirmed by QA?'] },
      },
      messages: [{ role: 'assistant', content: 'Recorded the launch date.' }],
    });
    return toolEvent;
  }

  it('a scripted 40-step run snapshots every 18 terminal markers with increasing sequence, each snapshot valid and unchanged afterwards', async () => {
    await start();
    const outcomes = [];
    for (let step = 1; step <= 40; step += 1) {
      // Verbose events never change the cadence.
      const chatter = Array.from({ length: step % 4 }, (_, index) => ({
        role: 'assistant' as const,
        content: `working on step ${step}, part ${index}`,
      }));
      const result = await commit({ markers: STEP, ...(chatter.length > 0 ? { messages: chatter } : {}) });
      if (result.compaction !== undefined) outcomes.push({ step, ...result.compaction });
    }
    // 3 counted markers a step: a snapshot every 6 steps (before the 8-step fallback).
    expect(outcomes.map((outcome) => [outcome.step, outcome.sequence, outcome.status, outcome.attempts])).toEqual([
      [6, 1, 'PASS', 1],
      [12, 2, 'PASS', 1],
      [18, 3, 'PASS', 1],
      [24, 4, 'PASS', 1],
      [30, 5, 'PASS', 1],
      [36, 6, 'PASS', 1],
    ]);
    const records = await t.engram.runs.snapshots({ scope: run });
    expect(records.map((record) => record.snapshot.sequence)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const record of records) expect(checkSnapshot(record.snapshot)).toEqual([]);
    const first = records[0]!.snapshot;
    expect(first).toMatchObject({
      objective: 'Find the Atlas launch date',
      provenance_mode: 'audit_only',
      counts: { counted_events_since_last_compaction: 18, steps_since_last_compaction: 6 },
    });
    expect(first.state.claims[0]!.evidence_refs[0]!.evidence_id).toMatch(/^evd_/);
    // Append-only: the first snapshot reads the same after five more.
    expect((await t.engram.runs.snapshot(first.snapshot_id)).snapshot).toEqual(first);
    const state = await t.engram.runs.get(run);
    expect(state).toMatchObject({
      status: 'active',
      sequence: 6,
      latest_snapshot_id: records[5]!.snapshot.snapshot_id,
      counted_since: 12,
      steps_since: 4,
    });

    // The narrative: the spec's eight sections in order, the same bytes every time.
    const narrative = await t.engram.runs.narrative(first.snapshot_id);
    expect(await t.engram.runs.narrative(first.snapshot_id)).toBe(narrative);
    const positions = NARRATIVE_HEADINGS.map((heading) => narrative.indexOf(heading));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('falls back to the step count when steps carry fewer terminal markers', async () => {
    await start();
    const steps: number[] = [];
    for (let step = 1; step <= 40; step += 1) {
      const result = await commit({ markers: ['PLAN_DONE', 'STEP_DONE'] });
      if (result.compaction !== undefined) steps.push(step);
    }
    expect(steps).toEqual([8, 16, 24, 32, 40]);
  });

  it('property: the cadence depends only on terminal markers and steps', async () => {
    const markerArb = fc.constantFrom<Marker>('PLAN_DONE', 'ACT_DONE', 'OBSERVE_DONE', 'STEP_DONE');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ markers: fc.array(markerArb, { maxLength: 4 }), chatter: fc.nat({ max: 3 }) }), {
          minLength: 1,
          maxLength: 30,
        }),
        async (turns) => {
          const local = await tempEngram('2026-06-01T12:00:00.000Z', {
            embeddings: { provider: 'none' },
            compaction: { eventThreshold: 5, stepFallback: 3 },
          });
          try {
            const runScope = { ...scope, run_id: 'prop' };
            await local.engram.commitTurn({
              scope: runScope,
              turn_id: 'start',
              run: { objective: 'o', done_definition: 'd' },
            });
            let counted = 0;
            let steps = 0;
            const expected: number[] = [];
            const seen: number[] = [];
            for (const [index, entry] of turns.entries()) {
              counted += entry.markers.filter((marker) => marker !== 'STEP_DONE').length;
              steps += entry.markers.filter((marker) => marker === 'STEP_DONE').length;
              if (counted >= 5 || steps >= 3) {
                expected.push(index);
                counted = 0;
                steps = 0;
              }
              const messages = Array.from({ length: entry.chatter }, () => ({
                role: 'user' as const,
                content: 'verbose',
              }));
              if (entry.markers.length === 0 && messages.length === 0)
                messages.push({ role: 'user', content: 'just talk' });
              const result = await local.engram.commitTurn({
                scope: runScope,
                turn_id: `t${index}`,
                ...(entry.markers.length > 0 ? { markers: entry.markers } : {}),
                ...(messages.length > 0 ? { messages } : {}),
              });
              if (result.compaction !== undefined) seen.push(index);
            }
            expect(seen).toEqual(expected);
          } finally {
            await local.cleanup();
          }
        },
      ),
      { numRuns: 15 },
    );
  });

  it('a failing compaction retries once, stores SYSTEM_ERROR and stops the run until it is resumed', async () => {
    await start();
    // A changed objective breaks the gate: the run's purpose may not drift between snapshots.
    for (let step = 1; step <= 6; step += 1) await commit({ markers: STEP });
    await commit({
      run: { objective: 'Find any date at all' },
      messages: [{ role: 'user', content: 'Never mind the source.' }],
    });
    let failed;
    for (let step = 1; step <= 6; step += 1) {
      const result = await commit({ markers: STEP });
      if (result.compaction !== undefined) failed = result.compaction;
    }
    expect(failed).toMatchObject({ sequence: 2, status: 'FAIL', attempts: 2, stopped: true });
    expect(failed!.diagnostic).toMatch(/objective/);
    const stored = await t.engram.runs.snapshot(failed!.snapshot_id);
    expect(stored.snapshot.validation).toMatchObject({ status: 'FAIL', failure_action_taken: 'SYSTEM_ERROR' });
    expect(stored.snapshot.validation.checks).toContainEqual(
      expect.objectContaining({ name: 'retry', status: 'FAIL' }),
    );

    await expect(commit({ messages: [{ role: 'user', content: 'next' }] })).rejects.toMatchObject({
      code: 'RUN_STOPPED',
      field: 'scope.run_id',
    });
    // Other runs of the same user go on.
    await expect(
      t.engram.commitTurn({
        scope: { ...scope, run_id: 'r2' },
        turn_id: 'other',
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).resolves.toBeDefined();
    expect(await t.engram.runs.get(run)).toMatchObject({
      status: 'stopped',
      stop_reason: expect.stringMatching(/objective/),
    });

    const resumed = await t.engram.runs.resume({ scope: run, by: 'ops', note: 'restore the objective' });
    expect(resumed.status).toBe('active');
    // Resumed, the run puts its objective back; the next snapshot is checked against the last passing one.
    await expect(
      commit({ run: { objective: 'Find the Atlas launch date' }, messages: [{ role: 'user', content: 'continue' }] }),
    ).resolves.toMatchObject({ turn_id: `t${turn}` });
    let next;
    for (let step = 1; step <= 6; step += 1) next = (await commit({ markers: STEP })).compaction ?? next;
    expect(next).toMatchObject({ sequence: 3, status: 'PASS', attempts: 1, stopped: false });
  });

  it("a packet of a compacted run opens with the snapshot's verified claims and open questions, citing the evidence", async () => {
    await start();
    for (let step = 1; step <= 6; step += 1)
      await commit({
        markers: STEP,
        messages: [{ role: 'assistant', content: `Checked source ${step} about the Atlas launch.` }],
      });
    const [record] = await t.engram.runs.snapshots({ scope: run });
    const evidence = record!.snapshot.state.claims[0]!.evidence_refs[0]!.evidence_id;
    const packet = await t.engram.compose({ scope, purpose: 'planner' });
    expect(packet.short_term.rolling_summary).toMatch(/^Verified in this run \(snapshot 1/);
    expect(packet.short_term.rolling_summary).toContain(`Atlas launches on 2026-06-12. [${evidence}]`);
    expect(packet.citations).toContainEqual({ id: evidence, type: 'evidence' });
    expect(packet.short_term.open_loops).toContainEqual(
      expect.objectContaining({ question: 'Is the date confirmed by QA?', status: 'open' }),
    );
    expect((await t.engram.builds.replay(String(packet.explain.determinism!['context_build_id']))).identical).toBe(
      true,
    );
  });

  it('refuses evidence that is not an event of the run, and never keeps a half-written turn', async () => {
    const other = await t.engram.commitTurn({
      scope: { ...scope, user_id: 'someone-else' },
      turn_id: 'x',
      tool_results: [{ tool_name: 'search', content: 'their data' }],
    });
    const foreign = other.events[0]!.event_id;
    const events = (await t.engram.events.list({ scope, limit: 100 })).length;
    await expect(
      commit({
        run: { objective: 'o', done_definition: 'd', evidence: [{ event_id: foreign }] },
        messages: [{ role: 'user', content: 'x' }],
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await t.engram.events.list({ scope, limit: 100 })).length).toBe(events);
    expect(await t.engram.runs.get(run)).toBeNull();
  });
});
