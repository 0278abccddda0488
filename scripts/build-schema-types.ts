// Writes src/spec/schema-types.ts: the TypeScript type each of the library's JSON Schemas (the
// `schemas` of src/spec/schema-check.ts) describes, one alias per schema and per definition. The
// schemas are the contract; src/spec/schema-types.test.ts checks the library's own types against
// these, so a type and its schema cannot drift apart unnoticed.
//
//   npm run build:schema-types             writes the file
//   npm run build:schema-types -- --check  exits 1 unless the committed file is what the schemas give

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { schemas } from '../src/spec/schema-check.js';

const TARGET = fileURLToPath(new URL('../src/spec/schema-types.ts', import.meta.url));

type Node = { [key: string]: unknown };
interface Doc {
  name: string;
  root: Node;
}

const docs: Doc[] = Object.entries(schemas).map(([name, root]) => ({ name, root: root as Node }));
const byId = new Map<string, Doc>();
for (const doc of docs) byId.set(String(doc.root['$id'] ?? doc.root['title']), doc);

const pascal = (text: string) =>
  text
    .replace(/(^|[_\-\s])(\w)/g, (_match, _sep: string, letter: string) => letter.toUpperCase())
    .replace(/^\w/, (letter) => letter.toUpperCase());
const defName = (doc: Doc, def: string) => `${pascal(doc.name)}${pascal(def)}`;
const literal = (value: unknown) =>
  typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(value);
const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : literal(name));

/** A JSON pointer followed from a node. */
function follow(node: Node, pointer: string): Node {
  return pointer
    .split('/')
    .filter((part) => part !== '')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<Node>((at, part) => {
      const next = at[part];
      if (typeof next !== 'object' || next === null) throw new Error(`no schema at ${pointer}`);
      return next as Node;
    }, node);
}

function refType(ref: string, here: Doc): string {
  const [base = '', pointer = ''] = ref.split('#');
  const doc = base === '' ? here : byId.get(base);
  if (doc === undefined) throw new Error(`no schema with the id ${base}`);
  if (pointer === '') return pascal(doc.name);
  const named = /^\/(?:\$defs|definitions)\/([^/]+)$/.exec(pointer);
  // A definition has a name of its own; a pointer deeper into a schema is written out where it is used.
  return named !== null ? defName(doc, named[1]!) : emit(follow(doc.root, pointer), doc);
}

function objectType(node: Node, here: Doc): string {
  const properties = (node['properties'] ?? {}) as Record<string, Node>;
  const required = new Set((node['required'] ?? []) as string[]);
  const extra = node['additionalProperties'];
  const names = Object.keys(properties);
  if (names.length === 0) {
    if (extra === false) return 'Record<string, never>';
    const allowed = (node['propertyNames'] as Node | undefined)?.['enum'];
    if (Array.isArray(allowed)) return `Partial<Record<${allowed.map(literal).join(' | ')}, unknown>>`;
    return `Record<string, ${typeof extra === 'object' && extra !== null ? emit(extra as Node, here) : 'unknown'}>`;
  }
  const fields = names.map((name) => `${key(name)}${required.has(name) ? '' : '?'}: ${emit(properties[name]!, here)}`);
  // An object that allows more fields than it names has an index signature, as its type should.
  if (extra === undefined || extra === true) fields.push('[key: string]: unknown');
  return `{ ${fields.join('; ')} }`;
}

function arrayType(node: Node, here: Doc): string {
  const items = node['items'];
  const prefix = node['prefixItems'] as Node[] | undefined;
  if (prefix !== undefined) {
    const head = prefix.map((item) => emit(item, here));
    return items === false
      ? `[${head.join(', ')}]`
      : `[${[...head, `...Array<${items === undefined ? 'unknown' : emit(items as Node, here)}>`].join(', ')}]`;
  }
  const item = items === undefined || items === true ? 'unknown' : emit(items as Node, here);
  // A list of exactly n (a span [start, end]) is a tuple.
  const length = node['minItems'];
  if (typeof length === 'number' && length === node['maxItems'] && length >= 1 && length <= 4)
    return `[${Array.from({ length }, () => item).join(', ')}]`;
  return `Array<${item}>`;
}

function typeOf(type: string, node: Node, here: Doc): string {
  if (type === 'integer' || type === 'number') return 'number';
  if (type === 'array') return arrayType(node, here);
  if (type === 'object') return objectType(node, here);
  return type;
}

/** The TypeScript type a schema node describes (annotations and checks TypeScript cannot say are left out). */
function emit(node: Node | boolean, here: Doc): string {
  if (node === true) return 'unknown';
  if (node === false) return 'never';
  if (typeof node['$ref'] === 'string') return refType(node['$ref'], here);
  const parts: string[] = [];
  if (node['const'] !== undefined) parts.push(literal(node['const']));
  else if (Array.isArray(node['enum'])) parts.push(node['enum'].map(literal).join(' | '));
  else if (node['type'] !== undefined)
    parts.push(
      (Array.isArray(node['type']) ? node['type'] : [node['type']])
        .map((type: string) => typeOf(type, node, here))
        .join(' | '),
    );
  else if (node['properties'] !== undefined) parts.push(objectType(node, here));
  for (const union of ['oneOf', 'anyOf'] as const) {
    if (!Array.isArray(node[union])) continue;
    const entries = node[union].map((entry: Node) => emit(entry, here));
    // Alternatives that only say which fields must be present ({ required: […] }) add no type.
    if (entries.some((entry: string) => entry !== 'unknown')) parts.push(entries.join(' | '));
  }
  if (Array.isArray(node['allOf'])) parts.push(...node['allOf'].map((entry: Node) => emit(entry, here)));
  if (parts.length === 0) return 'unknown';
  return parts.length === 1 ? parts[0]! : parts.map((part) => `(${part})`).join(' & ');
}

function definitions(doc: Doc): string[] {
  const lines: string[] = [];
  const root = doc.root;
  const describes = ['type', 'properties', 'oneOf', 'anyOf', 'allOf', '$ref'].some((name) => root[name] !== undefined);
  if (describes) lines.push(`export type ${pascal(doc.name)} = ${emit(root, doc)};`);
  for (const section of ['$defs', 'definitions'] as const) {
    for (const [name, node] of Object.entries((root[section] ?? {}) as Record<string, Node>))
      lines.push(`export type ${defName(doc, name)} = ${emit(node, doc)};`);
  }
  return lines;
}

const text = [
  '// The types the JSON Schemas of src/spec/schemas describe, written by scripts/build-schema-types.ts:',
  '// do not edit; run `npm run build:schema-types`. One alias per schema (named after its key in',
  '// `schemas`) and per definition; schema-types.test.ts checks the library types against them.',
  '',
  ...docs.flatMap((doc) => [`// ${doc.name}`, ...definitions(doc), '']),
].join('\n');

if (process.argv.includes('--check')) {
  if (readFileSync(TARGET, 'utf8') !== text) {
    process.stderr.write(
      'src/spec/schema-types.ts differs from what the schemas give: run npm run build:schema-types\n',
    );
    process.exit(1);
  }
  process.stdout.write('src/spec/schema-types.ts is up to date\n');
} else {
  writeFileSync(TARGET, text);
  process.stdout.write(`wrote the types of ${docs.length} schemas to src/spec/schema-types.ts\n`);
}
