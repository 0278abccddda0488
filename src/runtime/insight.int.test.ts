// Insights end to end: added to a run, shown to planners (never to responders while unvalidated),
// gone after RUN_END, and a validated one promoted to a procedure that names it as provenance.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { atlasRun, atlasScope, commitAtlasRun } from '../../test/helpers/atlas-run.js';
import { tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';

const scope = atlasScope;
const run = atlasRun;

describe('insights', () => {
  let t: TempEngram;
  beforeEach(async () => {
    t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    await commitAtlasRun(t.engram);
  });
  afterEach(() => t.cleanup());

  it('reach planners, never responders while unvalidated, and are gone after RUN_END', async () => {
    const insight = await t.engram.insights.add({
      scope: run,
      type: 'hypothesis',
      statement: 'The launch slips if QA is late.',
      tests_suggested: ['ask QA for a date'],
    });
    expect(insight).toMatchObject({ validation_state: 'unvalidated', expires_at: 'run_end' });
    const planner = await t.engram.compose({ scope, purpose: 'planner' });
    expect(planner.insight.hypotheses.map((item) => item.id)).toEqual([insight.id]);
    const responder = await t.engram.compose({ scope, purpose: 'responder' });
    expect(responder.insight).toMatchObject({ usage_policy: { allow_in_responder: false }, hypotheses: [] });
    expect(responder.explain.omitted).toContainEqual(
      expect.objectContaining({ item: `insights:${insight.id}`, reason: 'not_allowed_for_purpose' }),
    );

    t.clock.advance(1000);
    await t.engram.insights.update({ insight_id: insight.id, state: 'testing', note: 'asked QA' });
    const validated = await t.engram.insights.update({ insight_id: insight.id, state: 'validated', by: 'mira' });
    expect(validated.history.map((step) => step.state)).toEqual(['unvalidated', 'testing', 'validated']);
    t.engram.registerPolicy({
      policy_id: 'with-insights',
      purposes: { responder: { allow_insights_in_responder: true, budget: { per_section: { insights: 200 } } } },
    });
    const allowed = await t.engram.compose({ scope, purpose: 'responder', policy_id: 'with-insights' });
    expect(allowed.insight).toMatchObject({
      usage_policy: { allow_in_responder: true },
      hypotheses: [expect.objectContaining({ id: insight.id, validation_state: 'validated' })],
    });
    await expect(t.engram.insights.update({ insight_id: insight.id, state: 'unvalidated' })).rejects.toMatchObject({
      code: 'STATE_VERSION_CONFLICT',
      field: 'validation_state',
    });

    t.clock.advance(1000);
    await t.engram.commitTurn({ scope, turn_id: 'end', markers: ['RUN_END'] });
    expect(await t.engram.insights.list({ scope: { user_id: 'mira', agent_id: 'assistant' } })).toEqual([]);
    const [expired] = await t.engram.insights.list({
      scope: { user_id: 'mira', agent_id: 'assistant' },
      include_expired: true,
    });
    expect(expired!.expired_at).not.toBeNull();
    expect((await t.engram.compose({ scope, purpose: 'planner' })).insight.hypotheses).toEqual([]);
    // A packet composed before the run ended still replays with the insight.
    expect((await t.engram.builds.replay(String(planner.explain.determinism!['context_build_id']))).identical).toBe(
      true,
    );
  });

  it('promotes a validated insight to a procedure that names it as provenance', async () => {
    const insight = await t.engram.insights.add({
      scope: run,
      type: 'strategy',
      statement: 'Canary deploys catch the regressions.',
      expires_at: null,
    });
    await expect(
      t.engram.insights.promote({
        insight_id: insight.id,
        type: 'procedure',
        key: 'procedure:deploy:canary',
        value: { task_type: 'deploy', name: 'canary', steps: ['deploy 5%', 'watch errors', 'roll out'] },
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'insight_id' });
    await t.engram.insights.update({ insight_id: insight.id, state: 'validated' });
    const { insight: promoted, items } = await t.engram.insights.promote({
      insight_id: insight.id,
      type: 'procedure',
      key: 'procedure:deploy:canary',
      value: { task_type: 'deploy', name: 'canary', steps: ['deploy 5%', 'watch errors', 'roll out'] },
    });
    expect(items[0]).toMatchObject({
      action: 'created',
      key: 'procedure:deploy:canary',
      rule: `insight:${insight.id}`,
    });
    expect(promoted.promoted_to).toBe(items[0]!.item_id);
    const planner = await t.engram.compose({ scope, purpose: 'planner', task_type: 'deploy' });
    expect(planner.long_term.procedures.map((procedure) => procedure.procedure_id)).toContain(items[0]!.item_id);
  });
});
