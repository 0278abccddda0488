// The lean tool surface: every tool list a model request carries costs tokens, so by default each
// tool shows the common shape of its input only — the arguments a model uses, their types and
// enums, and a word on the top-level ones — and no output schema. The library still validates
// every call in full (sizes, patterns, formats), and a tool still takes the arguments of its full
// schema; `tools: 'full'` lists those schemas as they are.

import type { SchemaNode } from './inline-schema.js';
import { inputSchemas } from './tool-schemas.js';

/** What a lean schema keeps: enough for a model to form a call; the library checks the rest. */
const KEPT = new Set([
  'type',
  'properties',
  'required',
  'items',
  'enum',
  'anyOf',
  'oneOf',
  'additionalProperties',
  'const',
  'description',
]);

function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How to make one tool's schema lean, by property path (`''` is the root, `messages.items` a list's items). */
export interface LeanOptions {
  /** Only these properties at a path. */
  pick?: Readonly<Record<string, readonly string[]>>;
  /** A shorter description for a top-level property (the library's own are written for its docs). */
  notes?: Readonly<Record<string, string>>;
  /** Properties shown as a plain object with their description only (a rarely used, large shape). */
  opaque?: readonly string[];
}

/**
 * A schema with only the keywords a model needs: descriptions on the top-level properties only,
 * the properties `pick` names, and `anyOf` alternatives that require a property left out dropped.
 *
 * @example
 * leanSchema(inputSchemas.forget) // { type: 'object', required: [...], properties: { scope: {...}, key: {...} } }
 */
export function leanSchema(schema: SchemaNode, options: LeanOptions = {}): SchemaNode {
  const walk = (node: unknown, path: string, depth: number): unknown => {
    if (Array.isArray(node)) return node.map((entry) => walk(entry, path, depth));
    if (!isNode(node)) return node;
    if (options.opaque?.includes(path) === true)
      return {
        type: 'object',
        ...(typeof node['description'] === 'string' ? { description: node['description'] } : {}),
      };
    const out: SchemaNode = {};
    for (const [keyword, value] of Object.entries(node)) {
      if (!KEPT.has(keyword) || (keyword === 'description' && depth !== 1)) continue;
      if (keyword === 'properties' && isNode(value)) {
        const wanted = options.pick?.[path];
        const names = Object.keys(value).filter((name) => wanted === undefined || wanted.includes(name));
        out['properties'] = Object.fromEntries(
          names.map((name) => [name, walk(value[name], path === '' ? name : `${path}.${name}`, depth + 1)]),
        );
        continue;
      }
      out[keyword] =
        keyword === 'items'
          ? walk(value, `${path}.items`, depth)
          : keyword === 'anyOf' || keyword === 'oneOf'
            ? walk(value, path, depth)
            : value;
    }
    const note = depth === 1 ? options.notes?.[path] : undefined;
    if (note !== undefined) out['description'] = note;
    const properties = out['properties'];
    if (isNode(properties)) {
      const present = (names: unknown) =>
        Array.isArray(names) && names.every((name) => typeof name === 'string' && name in properties);
      if (Array.isArray(out['required']))
        out['required'] = out['required'].filter((name) => typeof name === 'string' && name in properties);
      // A choice of which properties to give, among those shown.
      if (Array.isArray(out['anyOf'])) {
        const kept = out['anyOf'].filter(
          (branch) => !isNode(branch) || branch['required'] === undefined || present(branch['required']),
        );
        if (kept.length > 0) out['anyOf'] = kept;
        else delete out['anyOf'];
      }
    }
    return out;
  };
  return walk(schema, '', 0) as SchemaNode;
}

/**
 * The lean input schema of each tool. commit_turn shows a turn's messages and tool results (the
 * working-state patch, step markers and run payload stay in the full surface), compose_context its
 * purpose, query cues and budget.
 *
 * @example
 * Object.keys(leanInputSchemas.commit_turn.properties) // ['scope', 'turn_id', 'ts', 'messages', 'tool_results']
 */
export const leanInputSchemas = {
  commit_turn: leanSchema(inputSchemas.commit_turn, {
    pick: {
      '': ['scope', 'turn_id', 'ts', 'messages', 'tool_results'],
      'messages.items': ['role', 'content', 'sensitivity'],
      'tool_results.items': ['tool_name', 'call_id', 'content', 'status'],
    },
    notes: {
      turn_id: 'Unique per turn: the same turn_id again writes nothing (a safe retry).',
      ts: 'When the turn happened (RFC 3339); default now.',
    },
  }),
  compose_context: leanSchema(inputSchemas.compose_context, {
    pick: {
      '': ['scope', 'purpose', 'cues', 'budget', 'render', 'full_packet'],
      cues: ['query', 'keywords', 'entities'],
      budget: ['max_tokens'],
    },
    notes: { cues: 'What the next step is about: query (the question or task), keywords, entities.' },
  }),
  search_memory: leanSchema(inputSchemas.search_memory, { pick: { '': ['scope', 'query', 'types', 'k'] } }),
  remember: leanSchema(inputSchemas.remember, { pick: { '': ['scope', 'type', 'key', 'value', 'confidence'] } }),
  forget: leanSchema(inputSchemas.forget),
  get_working_state: leanSchema(inputSchemas.get_working_state),
  update_working_state: leanSchema(inputSchemas.update_working_state),
  list_candidates: leanSchema(inputSchemas.list_candidates, {
    pick: { '': ['scope', 'status', 'kind', 'cursor', 'limit'] },
  }),
  review_candidate: leanSchema(inputSchemas.review_candidate, { opaque: ['edit'] }),
} satisfies Record<keyof typeof inputSchemas, SchemaNode>;
