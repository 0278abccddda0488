// Output schemas of the MCP tools whose results have no JSON Schema in the library (commit results,
// item diffs, search hits, review candidates). They name the fields a caller relies on and stay
// open to new ones, so a client validating `structuredContent` keeps working as results grow.

import { ITEM_STATUSES, MEMORY_TYPES } from '../index.js';
import type { SchemaNode } from './inline-schema.js';

const string = { type: 'string' };
const nullableString = { type: ['string', 'null'] };
const timestamp = { type: 'string', format: 'date-time' };
const count = { type: 'integer', minimum: 0 };
const number = { type: 'number' };
const boolean = { type: 'boolean' };
const strings = { type: 'array', items: string };
const anyObject = { type: 'object' };

/** An object schema: every field in `fields` required, those in `optional` not. */
function object(
  fields: Record<string, SchemaNode>,
  options: { optional?: Record<string, SchemaNode>; description?: string } = {},
): SchemaNode {
  return {
    type: 'object',
    ...(options.description === undefined ? {} : { description: options.description }),
    required: Object.keys(fields),
    properties: { ...fields, ...options.optional },
  };
}

function listOf(items: SchemaNode, description: string): SchemaNode {
  return { type: 'array', description, items };
}

const memoryType = { type: 'string', enum: [...MEMORY_TYPES] };
const scope = object({ tenant_id: string, user_id: string, agent_id: string, session_id: string, run_id: string });

/** A change to long-term memory (ItemDiff). */
export const itemDiffSchema = object(
  {
    action: { type: 'string', enum: ['created', 'updated', 'superseded', 'retracted', 'unchanged', 'deleted'] },
    item_id: string,
    type: memoryType,
    key: string,
    version: count,
    previous_id: nullableString,
    rule: string,
  },
  { description: 'A change to long-term memory: what happened to which version of which key, and by which rule.' },
);

const itemDiffs = listOf(itemDiffSchema, 'What changed in long-term memory.');

/** What commit_turn wrote (CommitTurnResult). */
export const commitTurnResultSchema = object(
  {
    turn_id: string,
    scope,
    recorded_at: timestamp,
    dry_run: boolean,
    replayed: {
      type: 'boolean',
      description: 'True when this turn_id was committed before: nothing was written and this is the first result.',
    },
    events: listOf(
      object({
        event_id: string,
        kind: string,
        role: string,
        marker: nullableString,
        sensitivity: string,
        embedding_status: string,
        ts: timestamp,
      }),
      'The events the turn wrote.',
    ),
    working_state: object({ changed: boolean, state_version: count }),
    summary: object({ version: count, sentences_added: count, key_quotes_added: count }),
    gate: listOf(
      object({
        event_id: string,
        decision: { type: 'string', enum: ['must', 'may', 'never'] },
        wrote: boolean,
        reason: string,
        rules: strings,
      }),
      'The retention gate: whether each message and tool result could become long-term memory, and why.',
    ),
    items: itemDiffs,
    extraction_failures: listOf(
      anyObject,
      'Extractions whose output could not be used (memory was untouched by them).',
    ),
  },
  {
    optional: {
      compaction: object({
        snapshot_id: string,
        sequence: count,
        status: { type: 'string', enum: ['PASS', 'FAIL'] },
        attempts: count,
        stopped: boolean,
        diagnostic: nullableString,
      }),
    },
  },
);

const memoryItem = object(
  {
    id: string,
    type: memoryType,
    key: string,
    value: anyObject,
    confidence: number,
    status: { type: 'string', enum: [...ITEM_STATUSES] },
    scope_level: { type: 'string', enum: ['user', 'agent', 'tenant'] },
    version: count,
    source_event_ids: strings,
    recorded_at: timestamp,
  },
  { description: 'One version of a long-term memory item (the full MemoryItem of the library).' },
);

/** The result of search_memory: hits best first. */
export const searchResultSchema = object({
  hits: listOf(
    object({
      item: memoryItem,
      score: { type: 'number', description: 'The fused score; comparable within one result list only.' },
      signals: {
        type: 'object',
        description: 'The rank and score of each signal (full_text, vector, recency, salience).',
      },
    }),
    'The hits, best first.',
  ),
});

/** The result of remember and forget. */
export const itemChangesSchema = object({ items: itemDiffs });

const candidate = object(
  {
    id: string,
    kind: { type: 'string', enum: ['episode', 'memory', 'contradiction', 'doctrine'] },
    status: { type: 'string', enum: ['pending', 'approved', 'edited', 'rejected'] },
    source: { type: 'string', enum: ['llm', 'rules'] },
    user_id: string,
    agent_id: string,
    session_id: string,
    run_id: string,
    trace_id: string,
    memory_type: nullableString,
    confidence: number,
    payload: { type: 'object', description: 'The proposal as the reflection made it.' },
    target: {
      type: 'object',
      description: 'What approving writes: { write: "item" | "retract" | "insight" | "resolve" | "none", … }.',
    },
    source_event_ids: strings,
    sensitivity: {
      type: 'string',
      enum: ['normal', 'private', 'secret'],
      description: "The strongest sensitivity of its evidence; anything but normal writes at the user's level only.",
    },
    created_at: timestamp,
    decision: {
      type: ['object', 'null'],
      description: 'Who decided, when, why, and what it wrote; null while pending.',
    },
  },
  { description: 'A proposal of reflection waiting for (or past) review.' },
);

/** The result of list_candidates: one page and the cursor of the next. */
export const candidatePageSchema = object({
  candidates: listOf(candidate, 'Candidates, oldest first.'),
  next_cursor: { type: ['string', 'null'], description: 'Pass as `cursor` for the next page; null on the last page.' },
});

/** The result of review_candidate (DecisionResult). */
export const decisionResultSchema = object({
  candidate,
  items: itemDiffs,
  insight_ids: { ...strings, description: 'Insights the approval wrote.' },
});
