// Input and output schemas of the MCP tools, derived from the JSON Schemas the library validates
// with: inlined, and without `tenant_id` (the tenant comes from the caller's key). Where MCP adds
// an argument (`render`, `decision`) or reshapes a call, the added part is written here.

import { KEY_RULES, MEMORY_TYPES, VALUE_SCHEMAS, type MemoryType } from '../index.js';
import { inlineSchema, propertyOf, withoutProperty, type SchemaNode } from './inline-schema.js';
import {
  candidatePageSchema,
  commitTurnResultSchema,
  decisionResultSchema,
  itemChangesSchema,
  searchResultSchema,
} from './output-schemas.js';

const COMMON = 'urn:engram:schema:common:v1';
const COMMIT_TURN = 'urn:engram:schema:commit-turn-request:v1';
const COMPOSE = 'urn:engram:schema:compose-request:v1';
const MEMORY = 'urn:engram:schema:memory-requests:v1';
const REFLECTION = 'urn:engram:schema:reflection-requests:v1';
const WORKING_STATE = 'urn:engram:schema:working-state:v1';
const PACKET = 'https://yourmem.ai/schemas/memorypacket/v1.json';

const SCOPE_HELP =
  'Whose memory and where: user_id (the person), agent_id (this assistant), session_id (this conversation), run_id (this task or run). The tenant comes from your key.';

/** A copy of `schema` with a description on the property at `name`. */
function describe(schema: SchemaNode, name: string, description: string): SchemaNode {
  const properties = schema['properties'] as Record<string, SchemaNode>;
  return { ...schema, properties: { ...properties, [name]: { ...properties[name], description } } };
}

/** A library request schema as a tool input: inlined, tenant-free, the scope explained. */
function requestSchema(ref: string): SchemaNode {
  const schema = withoutProperty(withoutProperty(inlineSchema(ref), ['scope', 'tenant_id']), ['tenant_id']);
  delete schema['title'];
  return describe(schema, 'scope', SCOPE_HELP);
}

function valueShape(type: MemoryType): string {
  const schema = VALUE_SCHEMAS[type] as { required?: string[]; properties?: Record<string, unknown> };
  const required = new Set(schema.required ?? []);
  return Object.keys(schema.properties ?? {})
    .map((name) => (required.has(name) ? name : `${name}?`))
    .join(', ');
}

/**
 * One line per memory type: its key format and value fields (from the library's key and value rules).
 *
 * @example
 * keyAndValueGuide() // '- profile: key profile:<subject>; value { subject, facts }\n- preferences: …'
 */
export function keyAndValueGuide(): string {
  return MEMORY_TYPES.map((type) => {
    const rule = KEY_RULES[type];
    const key = `${rule.prefix}:${rule.segments.map((segment) => `<${segment}>`).join(':')}`;
    const allowed = Object.entries(rule.allowed ?? {}).map(
      ([index, values]) => ` (${rule.segments[Number(index)]}: ${values.join('|')})`,
    );
    return `- ${type}: key ${key}${allowed.join('')}; value { ${valueShape(type)} }`;
  }).join('\n');
}

const commitTurnInput = requestSchema(COMMIT_TURN);

const composeRequest = describe(
  requestSchema(COMPOSE),
  'purpose',
  'responder: answering the user; planner: deciding the next steps (also sees insights); tool: calling a tool.',
);
const composeInput: SchemaNode = {
  ...composeRequest,
  properties: {
    ...(composeRequest['properties'] as SchemaNode),
    render: {
      type: 'string',
      enum: ['markdown', 'xml'],
      description: 'The format of the prompt-ready text the result holds (default markdown).',
    },
    full_packet: {
      type: 'boolean',
      description: 'Also return the whole MemoryPacket (large: budgets, explain, citations) in the structured result.',
    },
  },
};

const sessionScope = withoutProperty(inlineSchema(`${COMMON}#/$defs/session_scope`), ['tenant_id']);
const stateScope = withoutProperty(inlineSchema(`${COMMON}#/$defs/scope`), ['tenant_id']);
const statePatch = propertyOf(inlineSchema(COMMIT_TURN), ['state_patch']);

const workingStateInput: SchemaNode = {
  type: 'object',
  additionalProperties: false,
  required: ['scope'],
  properties: {
    scope: {
      ...sessionScope,
      description: 'The session: user_id, agent_id, session_id. The tenant comes from your key.',
    },
  },
};

const updateWorkingStateInput: SchemaNode = {
  type: 'object',
  additionalProperties: false,
  required: ['scope', 'expected_version'],
  anyOf: [{ required: ['set'] }, { required: ['append'] }],
  properties: {
    scope: { ...stateScope, description: SCOPE_HELP },
    expected_version: {
      ...propertyOf(statePatch, ['expected_version']),
      description: 'The state_version you read (get_working_state); a stale one fails with STATE_VERSION_CONFLICT.',
    },
    set: propertyOf(statePatch, ['set']),
    append: propertyOf(statePatch, ['append']),
    turn_id: {
      ...propertyOf(inlineSchema(COMMIT_TURN), ['turn_id']),
      description: 'An id for the update (it is recorded as a turn); generated when left out.',
    },
  },
};

const reject = inlineSchema(`${REFLECTION}#/$defs/reject`);
const reviewCandidateInput: SchemaNode = {
  type: 'object',
  additionalProperties: false,
  required: ['candidate_id', 'decision'],
  properties: {
    candidate_id: {
      ...propertyOf(reject, ['candidate_id']),
      description: 'The candidate (cand_…) from list_candidates.',
    },
    decision: { type: 'string', enum: ['approve', 'reject'] },
    reason: {
      ...propertyOf(reject, ['reason']),
      description: 'Why it is rejected: required to reject, not taken by an approval.',
    },
    edit: {
      ...inlineSchema(`${REFLECTION}#/$defs/edit`),
      description:
        'Approve with a change: what to write instead of the candidate\'s own target. Only with decision "approve".',
    },
  },
};

/**
 * The input schema of each tool.
 *
 * @example
 * inputSchemas.search_memory.required // ['scope', 'query']
 */
export const inputSchemas = {
  commit_turn: commitTurnInput,
  compose_context: composeInput,
  search_memory: requestSchema(`${MEMORY}#/$defs/search`),
  remember: requestSchema(`${MEMORY}#/$defs/remember`),
  forget: requestSchema(`${MEMORY}#/$defs/forget`),
  get_working_state: workingStateInput,
  update_working_state: updateWorkingStateInput,
  list_candidates: requestSchema(`${REFLECTION}#/$defs/list_candidates`),
  review_candidate: reviewCandidateInput,
} satisfies Record<string, SchemaNode>;

function outputOf(ref: string): SchemaNode {
  const schema = inlineSchema(ref);
  delete schema['title'];
  return schema;
}

const workingState = outputOf(WORKING_STATE);

/** The state an update left, and whether its turn_id was recorded before (the working state schema is closed). */
const workingStateUpdate: SchemaNode = {
  ...workingState,
  required: [...(workingState['required'] as string[]), 'replayed'],
  properties: {
    ...(workingState['properties'] as SchemaNode),
    replayed: {
      type: 'boolean',
      description:
        'True when this turn_id was recorded before with the same update: nothing was written and this is the state it recorded.',
    },
  },
};

/**
 * The output schema of each tool (what `structuredContent` holds).
 *
 * @example
 * outputSchemas.search_memory.required // ['hits']
 */
export const outputSchemas = {
  commit_turn: commitTurnResultSchema,
  compose_context: {
    type: 'object',
    additionalProperties: false,
    required: ['text', 'build_id', 'cited', 'used_tokens', 'max_tokens'],
    properties: {
      text: {
        type: 'string',
        description: 'The packet as prompt-ready text; each item shows the last six characters of the id it cites.',
      },
      build_id: { type: 'string', description: 'The context build (ctx_…), to replay or explain it.' },
      cited: {
        type: 'array',
        items: { type: 'string' },
        description: 'Every event and memory item id the text shows.',
      },
      used_tokens: { type: 'integer', minimum: 0 },
      max_tokens: { type: 'integer', minimum: 0 },
      packet: { ...outputOf(PACKET), description: 'The whole MemoryPacket v1 (only with full_packet).' },
    },
  },
  search_memory: searchResultSchema,
  remember: itemChangesSchema,
  forget: itemChangesSchema,
  get_working_state: workingState,
  update_working_state: workingStateUpdate,
  list_candidates: candidatePageSchema,
  review_candidate: decisionResultSchema,
} satisfies Record<keyof typeof inputSchemas, SchemaNode>;
