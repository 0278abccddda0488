// The insight API: add a hypothesis, strategy sketch or pattern to a run, list a user's insights,
// move one through its validation states, and promote a validated one to a fact or procedure (the
// insight stays, pointing at the item, and the item's provenance names the insight). An insight
// drawn from private events is promoted to an item at its user's level.

import { NotFoundError } from '../spec/errors.js';
import type { ConflictPolicy, MemoryType } from '../spec/items.js';
import type {
  AddInsightRequest,
  InsightRecord,
  ListInsightsRequest,
  PromoteInsightRequest,
  UpdateInsightRequest,
} from '../spec/reflection.js';
import type { ItemDiff } from '../spec/requests.js';
import { DEFAULT_TENANT } from '../spec/scope.js';
import type { StorageAdapter } from '../spec/storage.js';
import { validateReflectionRequest } from '../spec/validators.js';
import type { Sensitivity } from '../spec/event.js';
import { assertLevelAllowed, confinedLevel, strongestSensitivity } from '../events/sensitivity.js';
import { ItemMerger, placement } from '../items/merge.js';
import { newInsight, promotionOf, transition } from '../reflection/insights.js';
import { isoOrNull } from '../util/clock.js';
import { requireId, tenantOrDefault } from './arguments.js';

export interface InsightApiContext {
  storage: StorageAdapter;
  now: () => string;
  policies: Readonly<Record<MemoryType, ConflictPolicy>>;
}

const tenantOf = (value: { tenant_id?: string }) => value.tenant_id ?? DEFAULT_TENANT;

async function stored(context: InsightApiContext, tenantId: string, insightId: string): Promise<InsightRecord> {
  const insight = await context.storage.reviews.getInsight(tenantId, insightId);
  if (insight === null) throw new NotFoundError('insight_id', insightId);
  return insight;
}

/**
 * Adds an insight to a run, `unvalidated`, expiring at the run's end unless told otherwise.
 *
 * @example
 * await addInsight(context, { scope, type: 'hypothesis', statement: 'The timeout is the proxy', tests_suggested: ['curl it directly'] });
 */
export async function addInsight(context: InsightApiContext, input: unknown): Promise<InsightRecord> {
  const request = validateReflectionRequest<AddInsightRequest>('add_insight', input);
  const { scope } = request;
  const insight = newInsight(
    {
      tenant_id: tenantOf(scope),
      user_id: scope.user_id,
      agent_id: scope.agent_id,
      session_id: scope.session_id ?? 'default',
      run_id: scope.run_id,
    },
    {
      type: request.type,
      statement: request.statement,
      ...(request.trigger === undefined ? {} : { trigger: request.trigger }),
      ...(request.confidence === undefined ? {} : { confidence: request.confidence }),
      ...(request.tests_suggested === undefined ? {} : { tests_suggested: request.tests_suggested }),
      ...(request.expires_at === undefined
        ? {}
        : { expires_at: request.expires_at === 'run_end' ? 'run_end' : isoOrNull(request.expires_at, 'expires_at') }),
      ...(request.sources === undefined ? {} : { sources: request.sources }),
    },
    request.by ?? 'agent',
    context.now(),
  );
  await context.storage.write([{ op: 'put_insight', insight, expected_version: null }]);
  return insight;
}

/**
 * A user's insights, oldest first; live ones only unless `include_expired`.
 *
 * @example
 * const open = await listInsights(context, { scope: { user_id: 'mira', agent_id: 'assistant' }, states: ['unvalidated', 'testing'] });
 */
export async function listInsights(context: InsightApiContext, input: unknown): Promise<InsightRecord[]> {
  const request = validateReflectionRequest<ListInsightsRequest>('list_insights', input);
  const { scope } = request;
  return context.storage.reviews.listInsights({
    tenant_id: tenantOf(scope),
    user_id: scope.user_id,
    ...(scope.agent_id === undefined ? {} : { agent_id: scope.agent_id }),
    ...(scope.run_id === undefined ? {} : { run_id: scope.run_id }),
    ...(request.states === undefined ? {} : { states: request.states }),
    ...(request.types === undefined ? {} : { types: request.types }),
    ...(request.include_expired === true ? {} : { live_at: context.now() }),
    ...(request.cursor === undefined ? {} : { cursor: request.cursor }),
    limit: request.limit ?? 100,
  });
}

/**
 * Moves an insight to a new validation state (unvalidated → testing → validated | rejected),
 * recording who and why; refuses a move the lifecycle does not allow or a change to an expired one.
 *
 * @example
 * await updateInsight(context, { insight_id: 'ins_…', state: 'validated', by: 'mira', note: 'confirmed by the logs' });
 */
export async function updateInsight(context: InsightApiContext, input: unknown): Promise<InsightRecord> {
  const request = validateReflectionRequest<UpdateInsightRequest>('update_insight', input);
  const current = await stored(context, tenantOf(request), request.insight_id);
  const next = transition(current, request.state, request.by ?? 'user', context.now(), request.note ?? null);
  await context.storage.write([{ op: 'put_insight', insight: next, expected_version: current.version }]);
  return next;
}

/** The strongest sensitivity of an insight's evidence: its events, and the candidate it was approved from. */
async function insightSensitivity(
  context: InsightApiContext,
  insight: InsightRecord,
  now: string,
): Promise<Sensitivity> {
  const ids = insight.sources.filter((id) => id.startsWith('evt_'));
  const events =
    ids.length === 0
      ? []
      : await context.storage.events.list({
          tenant_id: insight.tenant_id,
          ids,
          now,
          include_expired: true,
          limit: ids.length,
        });
  const candidate =
    insight.candidate_id === null
      ? null
      : await context.storage.reviews.getCandidate(insight.tenant_id, insight.candidate_id);
  return strongestSensitivity([...events.map((event) => event.sensitivity), candidate?.sensitivity ?? 'normal']);
}

/**
 * Promotes a validated insight to an item (a fact type or a procedure) through the normal merge,
 * in one transaction with the insight's `promoted_to`. An insight drawn from private events
 * becomes an item of its user only, whatever the type's default level.
 *
 * @example
 * await promoteInsight(context, { insight_id: 'ins_…', type: 'procedure', key: 'procedure:deploy:canary', value: { task_type: 'deploy', name: 'canary', steps: ['…'] } });
 */
export async function promoteInsight(
  context: InsightApiContext,
  input: unknown,
): Promise<{ insight: InsightRecord; items: ItemDiff[] }> {
  const request = validateReflectionRequest<PromoteInsightRequest>('promote_insight', input);
  const insight = await stored(context, tenantOf(request), request.insight_id);
  const now = context.now();
  const promotion = promotionOf(insight, { type: request.type, key: request.key, value: request.value }, now);
  const scope = { tenant_id: insight.tenant_id, user_id: insight.user_id, agent_id: insight.agent_id };
  const sensitivity = await insightSensitivity(context, insight, now);
  assertLevelAllowed(undefined, sensitivity, 'insight_id');
  const candidate = { ...promotion, scope_level: confinedLevel(placement(promotion, scope).level, sensitivity) };
  const { owner } = placement(candidate, scope);
  const versions = await context.storage.items.list({
    tenant_id: scope.tenant_id,
    owners: [owner],
    keys: [request.key],
    limit: 10_000,
  });
  const merger = new ItemMerger(scope, versions, {
    now,
    policies: context.policies,
    extractor: 'reflection',
    sensitivityOf: () => sensitivity,
  });
  const { ops, diffs } = merger.plan(candidate);
  const itemId =
    diffs.find((diff) => diff.action === 'created' || diff.action === 'updated' || diff.action === 'unchanged')
      ?.item_id ?? null;
  const promoted: InsightRecord = {
    ...insight,
    promoted_to: itemId,
    history: [
      ...insight.history,
      { state: 'validated', by: request.by ?? 'user', at: now, note: `promoted to ${request.key}` },
    ],
    version: insight.version + 1,
    updated_at: now,
  };
  await context.storage.write([...ops, { op: 'put_insight', insight: promoted, expected_version: insight.version }]);
  return { insight: promoted, items: diffs };
}

/** The insights of an Engram (`engram.insights`). */
export interface Insights {
  /** One insight by id (NOT_FOUND when the tenant has none). */
  get(insightId: string, tenantId?: string): Promise<InsightRecord>;
  /** Adds an insight to a run (unvalidated; expires at the run's end unless told otherwise). */
  add(request: AddInsightRequest): Promise<InsightRecord>;
  /** A user's live insights (all with `include_expired`). */
  list(request: ListInsightsRequest): Promise<InsightRecord[]>;
  /** Moves an insight to a new validation state. */
  update(request: UpdateInsightRequest): Promise<InsightRecord>;
  /** Promotes a validated insight to a fact or procedure. */
  promote(request: PromoteInsightRequest): Promise<{ insight: InsightRecord; items: ItemDiff[] }>;
}

/**
 * The insight operations over a context (made fresh per call, so a closed Engram fails typed).
 *
 * @example
 * const insights = insightsOf(() => context);
 * await insights.update({ insight_id: 'ins_…', state: 'testing' });
 */
export function insightsOf(context: () => InsightApiContext): Insights {
  return {
    get: async (insightId, tenantId) => {
      requireId('ins', insightId, 'insight_id');
      const tenant = tenantOrDefault(tenantId);
      return stored(context(), tenant, insightId);
    },
    add: async (request) => addInsight(context(), request),
    list: async (request) => listInsights(context(), request),
    update: async (request) => updateInsight(context(), request),
    promote: async (request) => promoteInsight(context(), request),
  };
}
