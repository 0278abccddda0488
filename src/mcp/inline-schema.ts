// Turns the library's JSON Schemas (which reference each other by `$id` and JSON Pointer) into
// self-contained schemas for MCP clients: every `$ref` inlined, no `$id`, `$schema` or `$defs`
// left, so a client (or a model) reads one plain object and any JSON Schema validator accepts it.

import { EngramError, schemas } from '../index.js';

/** A JSON Schema node as plain data. */
export type SchemaNode = { [keyword: string]: unknown };

const registry = new Map<string, SchemaNode>(
  Object.values(schemas).flatMap((schema): Array<[string, SchemaNode]> => {
    const id = (schema as SchemaNode)['$id'];
    return typeof id === 'string' ? [[id, schema as SchemaNode]] : [];
  }),
);

const DROPPED = new Set(['$id', '$schema', '$defs', '$comment']);

function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pointerTarget(document: SchemaNode, pointer: string, ref: string): unknown {
  let node: unknown = document;
  for (const raw of pointer.split('/').slice(1)) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isNode(node) || !(part in node))
      throw new EngramError('INTERNAL', `$ref ${ref} points at nothing`, { field: '$ref' });
    node = node[part];
  }
  return node;
}

interface Location {
  document: SchemaNode;
  documentId: string;
}

function resolveRef(ref: string, from: Location): { target: unknown; at: Location; key: string } {
  const hash = ref.indexOf('#');
  const documentId = hash === 0 ? from.documentId : hash === -1 ? ref : ref.slice(0, hash);
  const pointer = hash === -1 ? '' : ref.slice(hash + 1);
  const document = documentId === from.documentId ? from.document : registry.get(documentId);
  if (document === undefined)
    throw new EngramError('INTERNAL', `$ref ${ref}: no schema ${documentId}`, { field: '$ref' });
  return {
    target: pointerTarget(document, pointer, ref),
    at: { document, documentId },
    key: `${documentId}#${pointer}`,
  };
}

function inlineNode(value: unknown, at: Location, stack: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((entry) => inlineNode(entry, at, stack));
  if (!isNode(value)) return value;
  let result: SchemaNode = {};
  const ref = value['$ref'];
  if (typeof ref === 'string') {
    const resolved = resolveRef(ref, at);
    if (stack.includes(resolved.key))
      throw new EngramError('INTERNAL', `$ref ${ref} is recursive and cannot be inlined`, { field: '$ref' });
    const inlined = inlineNode(resolved.target, resolved.at, [...stack, resolved.key]);
    if (isNode(inlined)) result = { ...inlined };
  }
  // Keywords beside a $ref (a description, a default) refine what it points at.
  for (const [keyword, child] of Object.entries(value)) {
    if (keyword === '$ref' || DROPPED.has(keyword)) continue;
    result[keyword] = inlineNode(child, at, stack);
  }
  return result;
}

/**
 * A schema of the library (by `$id`, optionally with a JSON Pointer fragment) with every `$ref`
 * inlined and no `$id`, `$schema` or `$defs`.
 *
 * @example
 * inlineSchema('urn:engram:schema:memory-requests:v1#/$defs/search') // { type: 'object', properties: { scope: { type: 'object', … } … } }
 */
export function inlineSchema(ref: string): SchemaNode {
  const root: Location = { document: {}, documentId: '' };
  const inlined = inlineNode({ $ref: ref }, root, []);
  if (!isNode(inlined)) throw new EngramError('INTERNAL', `$ref ${ref} is not a schema object`, { field: '$ref' });
  return inlined;
}

/**
 * A copy of a schema without the property at `path` (a list of property names walked through
 * `properties`), also taken out of `required`. Used to drop `tenant_id`, which comes from the key.
 *
 * @example
 * withoutProperty(schema, ['scope', 'tenant_id'])
 */
export function withoutProperty(schema: SchemaNode, path: readonly string[]): SchemaNode {
  const [head, ...rest] = path;
  const properties = schema['properties'];
  if (head === undefined || !isNode(properties) || !(head in properties)) return schema;
  const next: SchemaNode = { ...properties };
  if (rest.length === 0) {
    delete next[head];
    const required = schema['required'];
    const kept = Array.isArray(required) ? required.filter((name) => name !== head) : undefined;
    return { ...schema, properties: next, ...(kept === undefined ? {} : { required: kept }) };
  }
  const child = next[head];
  if (isNode(child)) next[head] = withoutProperty(child, rest);
  return { ...schema, properties: next };
}

/**
 * The schema at a property path of an inlined schema (for reusing one field's rules).
 *
 * @example
 * propertyOf(inlineSchema('urn:engram:schema:commit-turn-request:v1'), ['state_patch', 'set'])
 */
export function propertyOf(schema: SchemaNode, path: readonly string[]): SchemaNode {
  let node: unknown = schema;
  for (const name of path) {
    const properties = isNode(node) ? node['properties'] : undefined;
    node = isNode(properties) ? properties[name] : undefined;
  }
  if (!isNode(node))
    throw new EngramError('INTERNAL', `no property ${path.join('.')} in the schema`, { field: path.join('.') });
  return node;
}
