// Reflection by a language model: the versioned reflect-session prompt over the run's shareable
// events and the user's current items, answered as a SessionReflection (the schema is sent as is).
// An answer that breaks the schema or cites an event or item it was not shown is retried once, then
// reported as a failure; nothing of it is used.

import type { ValidationIssue } from '../spec/errors.js';
import type { EventRecord } from '../spec/event.js';
import type { MemoryItem } from '../spec/items.js';
import type { StructuredFailure, StructuredModel } from '../spec/providers.js';
import type { SessionReflection } from '../spec/reflection.js';
import { checkSessionReflection } from '../spec/validators.js';
import reflectionSchema from '../spec/schemas/session-reflection.schema.json' with { type: 'json' };
import { contentText } from '../events/content-text.js';
import { capText, type GenerateStructuredFn } from '../items/llm-extractor.js';
import { describeValue } from '../items/values.js';

import reflectPrompt from './prompts/reflect-session.v1.json' with { type: 'json' };

/** The prompt id and version, kept as provenance of what the model proposed. */
export const REFLECT_PROMPT = `${reflectPrompt.id}@${reflectPrompt.version}`;

const DEFAULT_MAX_EVENTS = 200;
const DEFAULT_MAX_ITEMS = 100;

export interface TraceToReflect {
  trace_id: string;
  user_id: string;
  agent_id: string;
  run_id: string;
  /** The run's shareable events in log order (the caller leaves secret ones out). */
  events: readonly EventRecord[];
  /** The user's current items, for contradictions. */
  items: readonly MemoryItem[];
}

export interface LlmReflectionOptions {
  /** Pass `generateStructured` (src/providers/llm/generate-structured.ts). */
  generate: GenerateStructuredFn;
  /** Most events shown, the first ones in log order (default 200). */
  maxEvents?: number;
  /** Most items shown, newest first (default 100). */
  maxItems?: number;
}

export type LlmReflectionResult =
  { ok: true; reflection: SessionReflection } | { ok: false; failure: StructuredFailure };

/**
 * Asks the model for a SessionReflection of one trace.
 *
 * @example
 * const result = await reflectWithModel(model, { generate: generateStructured }, { trace_id, user_id, agent_id, run_id, events, items });
 * if (result.ok) propose(result.reflection); else record(result.failure);
 */
export async function reflectWithModel(
  model: StructuredModel,
  options: LlmReflectionOptions,
  trace: TraceToReflect,
): Promise<LlmReflectionResult> {
  const events = trace.events
    .filter((event) => event.kind === 'message' || event.kind === 'tool_result')
    .slice(0, options.maxEvents ?? DEFAULT_MAX_EVENTS);
  const items = trace.items.slice(0, options.maxItems ?? DEFAULT_MAX_ITEMS);
  const shown = { events: new Set(events.map((event) => event.id)), items: new Set(items.map((item) => item.id)) };
  const result = await options.generate(model, {
    system: reflectPrompt.system,
    prompt: renderReflectionPrompt(trace, events, items),
    schema: reflectionSchema,
    schemaName: reflectPrompt.id,
    // The reflection schema has optional fields and opaque arrays, which strict mode refuses.
    strict: false,
    validate: (value) => checkReflection(value, trace.trace_id, shown),
  });
  return result.ok
    ? { ok: true, reflection: result.object as SessionReflection }
    : { ok: false, failure: result.failure };
}

/**
 * The user prompt: the template with the events as JSON lines and the items as `id key: value` lines,
 * filled in one pass so a placeholder inside an event's text is never expanded.
 *
 * @example
 * renderReflectionPrompt(trace, trace.events, trace.items)
 */
export function renderReflectionPrompt(
  trace: TraceToReflect,
  events: readonly EventRecord[],
  items: readonly MemoryItem[],
): string {
  const values: Record<string, string> = {
    trace_id: trace.trace_id,
    user_id: trace.user_id,
    agent_id: trace.agent_id,
    run_id: trace.run_id,
    events:
      events
        .map((event) =>
          JSON.stringify({
            id: event.id,
            kind: event.kind,
            role: event.role,
            ts: event.ts,
            text: capText(contentText(event.content)),
          }),
        )
        .join('\n') || '(none)',
    items:
      items.map((item) => `${item.id} ${item.key}: ${describeValue(item.type, item.value)}`).join('\n') || '(none)',
  };
  return reflectPrompt.template.replace(/\{\{(\w+)\}\}/gu, (whole, name: string) => values[name] ?? whole);
}

/** The schema's rules plus what it cannot say: the trace id, and ids that were shown. */
function checkReflection(
  value: unknown,
  traceId: string,
  shown: { events: ReadonlySet<string>; items: ReadonlySet<string> },
): ValidationIssue[] {
  const issues = checkSessionReflection(value);
  if (issues.length > 0) return issues;
  const reflection = value as SessionReflection;
  if (reflection.trace_id !== traceId)
    issues.push({ field: 'trace_id', rule: 'trace', message: `must be ${traceId}, the trace reflected on` });
  const knownEvents = (ids: unknown, field: string) => {
    if (!Array.isArray(ids)) return issues.push({ field, rule: 'type', message: 'must be an array of event ids' });
    ids.forEach((id, index) => {
      if (typeof id !== 'string' || !shown.events.has(id)) {
        issues.push({
          field: `${field}[${index}]`,
          rule: 'known_event',
          message: `cites ${JSON.stringify(id)}, which is not an event of this trace`,
        });
      }
    });
    return issues.length;
  };
  reflection.episode_candidates.forEach((episode, index) =>
    knownEvents(episode.source_event_ids, `episode_candidates[${index}].source_event_ids`),
  );
  reflection.memory_candidates.forEach((candidate, index) => {
    candidate.source_episode_indexes.forEach((episode, at) => {
      if (episode >= reflection.episode_candidates.length) {
        issues.push({
          field: `memory_candidates[${index}].source_episode_indexes[${at}]`,
          rule: 'known_episode',
          message: `names episode ${episode}, but there are ${reflection.episode_candidates.length}`,
        });
      }
    });
  });
  reflection.contradictions.forEach((entry, index) => {
    const field = `contradictions[${index}]`;
    const proposal = entry as Record<string, unknown>;
    if (
      typeof entry !== 'object' ||
      entry === null ||
      typeof proposal['question'] !== 'string' ||
      typeof proposal['detail'] !== 'string'
    ) {
      issues.push({
        field,
        rule: 'contradiction',
        message: 'must be an object with detail, item_ids, source_event_ids and question',
      });
      return;
    }
    knownEvents(proposal['source_event_ids'], `${field}.source_event_ids`);
    const itemIds = proposal['item_ids'];
    if (
      !Array.isArray(itemIds) ||
      itemIds.length === 0 ||
      itemIds.some((id) => typeof id !== 'string' || !shown.items.has(id))
    ) {
      issues.push({
        field: `${field}.item_ids`,
        rule: 'known_item',
        message: 'must list remembered item ids that were shown',
      });
    }
  });
  reflection.doctrine_suggestions.forEach((entry, index) => {
    if (
      typeof entry !== 'object' ||
      entry === null ||
      typeof (entry as Record<string, unknown>)['statement'] !== 'string'
    ) {
      issues.push({
        field: `doctrine_suggestions[${index}]`,
        rule: 'doctrine',
        message: 'must be an object with a statement',
      });
    }
  });
  return issues;
}
