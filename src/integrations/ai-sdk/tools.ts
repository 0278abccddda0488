// Memory tools for generateText, streamText and agents: search, remember and forget over the
// long-term memory of one user, as AI SDK tool definitions. The scope is bound when the tools are
// made: a model chooses what to look up or write, never whose memory it is.

import { jsonSchema, tool, type JSONSchema7, type Tool } from 'ai';

import { describeItem, KEY_RULES, MEMORY_TYPES, VALUE_SCHEMAS, type ItemDiff, type MemoryType } from '../../index.js';
import { memoryPort, type EngramSource, type MemoryPort } from '../memory-port.js';

/** Whose long-term memory the tools read and write (the tenant defaults to the store's; over HTTP it is the API key's). */
export interface MemoryToolScope {
  tenant_id?: string;
  user_id: string;
  agent_id: string;
}

export interface MemoryToolsOptions {
  /** An Engram (`createEngram`) or a client of an Engram server (`createClient` from engram/client). */
  engram: EngramSource;
  scope: MemoryToolScope;
}

/** One memory item as the model sees it: its id, type, key and a readable line. */
export interface MemoryHit {
  item_id: string;
  type: MemoryType;
  key: string;
  text: string;
  score: number;
}

/** What a write changed, one entry per item version. */
export interface MemoryChange {
  action: ItemDiff['action'];
  item_id: string;
  type: MemoryType;
  key: string;
  version: number;
}

/** What the model sends to searchMemory. */
export interface SearchMemoryInput {
  query: string;
  types?: MemoryType[];
  k?: number;
}

/** What the model sends to remember: an item as `engram.items.remember` takes it. */
export interface RememberInput {
  type: MemoryType;
  key: string;
  value: Record<string, unknown>;
  confidence?: number;
}

/** What the model sends to forget: a key or an item id. */
export interface ForgetInput {
  key?: string;
  item_id?: string;
  reason?: string;
}

/** The three tools under the names the model sees (a type alias: the SDK's ToolSet is a record, which an interface cannot be passed as). */
export type MemoryTools = {
  searchMemory: Tool<SearchMemoryInput, { hits: MemoryHit[] }>;
  remember: Tool<RememberInput, { changes: MemoryChange[] }>;
  forget: Tool<ForgetInput, { changes: MemoryChange[] }>;
};

/**
 * The tools `searchMemory`, `remember` and `forget` over one user's long-term memory. Inputs are
 * checked by Engram; a bad one fails the tool call with Engram's message, which the model sees.
 *
 * @example
 * const { text } = await generateText({
 *   model,
 *   tools: memoryTools({ engram, scope: { user_id: 'mira', agent_id: 'chat' } }),
 *   stopWhen: stepCountIs(3),
 *   prompt: 'Remember that I am vegetarian.',
 * });
 */
export function memoryTools(options: MemoryToolsOptions): MemoryTools {
  // A copy, so a caller's later change to its object does not move the tools to another user.
  const scope: MemoryToolScope = { ...options.scope };
  const port = memoryPort(options.engram);
  return {
    searchMemory: searchTool(port, scope),
    remember: rememberTool(port, scope),
    forget: forgetTool(port, scope),
  };
}

function searchTool(port: MemoryPort, scope: MemoryToolScope): MemoryTools['searchMemory'] {
  return tool({
    title: 'Search memory',
    description:
      "Searches the user's long-term memory (profile facts, preferences, goals, tasks, decisions, people and things, dated events, procedures) by words and meaning, best first. Use it to look up something specific about the user that the memory in the system prompt does not show.",
    inputSchema: objectSchema<SearchMemoryInput>(['query'], {
      query: { type: 'string', minLength: 1, maxLength: 10_000, description: 'What to look for, in words.' },
      types: {
        type: 'array',
        items: { type: 'string', enum: [...MEMORY_TYPES] },
        description: 'Only these kinds of memory.',
      },
      k: { type: 'integer', minimum: 1, maximum: 20, description: 'How many items (default 5).' },
    }),
    async execute({ query, types, k }) {
      const hits = await port.searchItems({ scope, query, k: k ?? 5, ...(types === undefined ? {} : { types }) });
      return {
        hits: hits.map(({ item, score }) => ({
          item_id: item.id,
          type: item.type,
          key: item.key,
          text: describeItem(item),
          score: Math.round(score * 10_000) / 10_000,
        })),
      };
    },
  });
}

function rememberTool(port: MemoryPort, scope: MemoryToolScope): MemoryTools['remember'] {
  return tool({
    title: 'Remember',
    description: `Saves one lasting fact to the user's long-term memory, when the user asks you to remember something or states a lasting fact or preference. Writing a key again updates it (the old version stays in history). The user's profile is profile:user with facts as { k, v } pairs (for example { subject: 'user', facts: [{ k: 'allergy:peanuts', v: 'allergic to peanuts' }] }); a fact with v null ends that fact (an allergy that is gone, a car sold). Key and required value fields by type: ${keyGuide()}.`,
    inputSchema: objectSchema<RememberInput>(['type', 'key', 'value'], {
      type: { type: 'string', enum: [...MEMORY_TYPES] },
      key: {
        type: 'string',
        description:
          'The key, in the format of its type: lower-case words joined by _, no spaces or colons inside a part.',
      },
      value: { type: 'object', description: 'The value, with the fields of its type.' },
      confidence: { type: 'number', minimum: 0, maximum: 1, description: 'How sure the user was (default 1).' },
    }),
    async execute({ type, key, value, confidence }) {
      const diffs = await port.remember({
        scope,
        type,
        key,
        value,
        rule: 'ai-sdk.remember',
        ...(confidence === undefined ? {} : { confidence }),
      });
      return { changes: diffs.map(changeOf) };
    },
  });
}

function forgetTool(port: MemoryPort, scope: MemoryToolScope): MemoryTools['forget'] {
  return tool({
    title: 'Forget',
    description:
      "Retracts a long-term memory item by its key (every current version) or its item_id, when the user says it is no longer true or asks you to forget it; the history keeps it. To end one fact of the user's profile, use remember with that fact's v null instead: forgetting the profile key retracts every fact in it.",
    inputSchema: objectSchema<ForgetInput>([], {
      key: { type: 'string', description: 'The key of the item (from searchMemory or the memory shown to you).' },
      item_id: { type: 'string', description: 'Or the id of one version (mem_…), from searchMemory.' },
      reason: { type: 'string', maxLength: 1000, description: 'Why, in the user’s words.' },
    }),
    async execute({ key, item_id: itemId, reason }) {
      const diffs = await port.forget({
        scope,
        ...(key === undefined ? {} : { key }),
        ...(itemId === undefined ? {} : { item_id: itemId }),
        ...(reason === undefined ? {} : { reason }),
      });
      return { changes: diffs.map(changeOf) };
    },
  });
}

/**
 * A tool input schema: an object of these properties and no others. The SDK does not check input
 * against it; Engram checks every request the tools make.
 */
function objectSchema<T>(required: Array<keyof T & string>, properties: Record<keyof T & string, JSONSchema7>) {
  return jsonSchema<T>({
    type: 'object',
    additionalProperties: false,
    ...(required.length === 0 ? {} : { required }),
    properties,
  });
}

function changeOf(diff: ItemDiff): MemoryChange {
  return { action: diff.action, item_id: diff.item_id, type: diff.type, key: diff.key, version: diff.version };
}

/** Each type's key format and required value fields, from the library's key and value rules. */
function keyGuide(): string {
  return MEMORY_TYPES.map((type) => {
    const rule = KEY_RULES[type];
    const key = [
      rule.prefix,
      ...rule.segments.map((segment, index) => rule.allowed?.[index]?.join('|') ?? `<${segment}>`),
    ].join(':');
    const required = (VALUE_SCHEMAS[type] as { required?: string[] }).required ?? [];
    return `${type} ${key} { ${required.join(', ')} }`;
  }).join('; ');
}
