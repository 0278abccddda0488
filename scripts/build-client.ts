// Writes src/client/routes.ts, the typed route table of `engram/client`, from the server's route
// table (the one that registers the routes and writes /openapi.json): each route's method and path,
// and the TypeScript types of its path parameters, query, body and answer (RouteSpec.wire).
//
//   npm run build:client             writes the file
//   npm run build:client -- --check  exits 1 unless the committed file is what the route table gives

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import type { RouteSpec } from '../src/server/route-kit.js';
import type { QueryParam } from '../src/server/route-query.js';
import { TENANT_PARAM } from '../src/server/route-query.js';
import { ALL_ROUTES } from '../src/server/server.js';

const TARGET = fileURLToPath(new URL('../src/client/routes.ts', import.meta.url));
const RECORDS = fileURLToPath(new URL('../src/client/records.ts', import.meta.url));

/** Names TypeScript itself provides: never imported. */
const BUILT_IN = new Set(['Omit', 'Partial', 'Pick', 'Record', 'Readonly', 'ReadonlyArray', 'Array']);

const literal = (value: string) => `'${value.replace(/'/g, "\\'")}'`;

function valueType(param: QueryParam): string {
  const text = param.enum === undefined ? 'string' : param.enum.map(literal).join(' | ');
  if (param.type === 'list') return param.enum === undefined ? 'readonly string[]' : `ReadonlyArray<${text}>`;
  if (param.type === 'integer') return 'number';
  if (param.type === 'boolean') return 'boolean';
  return text;
}

function queryType(spec: RouteSpec): string {
  const fields = [TENANT_PARAM, ...(spec.query ?? [])].map(
    (param) => `${param.name}${param.required === true ? '' : '?'}: ${valueType(param)}`,
  );
  return `{ ${fields.join('; ')} }`;
}

/** The input of one route: path parameters, query (optional unless a parameter is required) and body. */
function inputType(spec: RouteSpec): string {
  const fields: string[] = [];
  const params = [...spec.url.matchAll(/:(\w+)/g)].map((match) => `${match[1]}: string`);
  if (params.length > 0) fields.push(`params: { ${params.join('; ')} }`);
  const queryRequired = (spec.query ?? []).some((param) => param.required === true);
  fields.push(`query${queryRequired ? '' : '?'}: ${queryType(spec)}`);
  if (spec.body !== undefined) {
    if (spec.wire.body === undefined)
      throw new Error(`${spec.operationId}: the route takes a body but wire.body names no type`);
    fields.push(`body${spec.body.required ? '' : '?'}: ${spec.wire.body}`);
  } else if (spec.wire.body !== undefined)
    throw new Error(`${spec.operationId}: wire.body names a type but the route takes no body`);
  return `{ ${fields.join('; ')} }`;
}

function routeEntry(spec: RouteSpec): string {
  const contentType = spec.body?.contentType === undefined ? '' : `, contentType: ${literal(spec.body.contentType)}`;
  return `  ${spec.operationId}: { method: ${literal(spec.method)}, path: ${literal(spec.url)}${contentType} },`;
}

function typeEntry(spec: RouteSpec): string {
  return [
    `  /** ${spec.method} ${spec.url}: ${spec.summary.replace(/\*\//g, '*\\/')}. */`,
    `  ${spec.operationId}: {`,
    `    input: ${inputType(spec)};`,
    `    response: ${spec.wire.response};`,
    '  };',
  ].join('\n');
}

/** The type names the wire types use, split by the module that exports them. */
function imports(specs: readonly RouteSpec[]): string[] {
  const records = new Set(
    [...readFileSync(RECORDS, 'utf8').matchAll(/^export (?:interface|type) (\w+)/gm)].map((match) => match[1]!),
  );
  const names = new Set(
    specs
      .flatMap((spec) => `${spec.wire.body ?? ''} ${spec.wire.response}`.match(/\b[A-Z]\w*/g) ?? [])
      .filter((name) => !BUILT_IN.has(name)),
  );
  const sorted = [...names].sort();
  const fromRecords = sorted.filter((name) => records.has(name));
  const fromLibrary = sorted.filter((name) => !records.has(name));
  return [
    `import type { ${fromLibrary.join(', ')} } from '../index.js';`,
    `import type { ${fromRecords.join(', ')} } from './records.js';`,
  ];
}

function render(specs: readonly RouteSpec[]): string {
  const ids = specs.map((spec) => spec.operationId);
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated !== undefined) throw new Error(`operationId ${repeated} is used twice`);
  return [
    "// The routes of the HTTP API, written by scripts/build-client.ts from the server's route table",
    "// (src/server/routes-*.ts): do not edit; run `npm run build:client`. Each route's method and path,",
    '// and the types of its path parameters, query, body and answer.',
    '',
    ...imports(specs),
    '',
    '/**',
    ' * Every route by its operationId (as in /openapi.json): method, path (`:id` is a path parameter)',
    ' * and, when the body is not JSON, its content type.',
    ' *',
    ' * @example',
    " * ROUTES.compose // { method: 'POST', path: '/v1/compose' }",
    ' */',
    'export const ROUTES = {',
    ...specs.map(routeEntry),
    '} as const;',
    '',
    '/**',
    ' * What each route takes (`input`: path parameters, query, body) and answers (`response`).',
    ' *',
    ' * @example',
    " * const body: RouteTypes['remember']['input']['body'] = { scope: { user_id: 'mira', agent_id: 'assistant' }, type: 'preferences', key: 'pref:tone', value: { tone: 'concise' } };",
    ' */',
    'export interface RouteTypes {',
    ...specs.map(typeEntry),
    '}',
    '',
  ].join('\n');
}

const text = render(ALL_ROUTES);
if (process.argv.includes('--check')) {
  if (readFileSync(TARGET, 'utf8') !== text) {
    process.stderr.write('src/client/routes.ts differs from what the route table gives: run npm run build:client\n');
    process.exit(1);
  }
  process.stdout.write(`src/client/routes.ts is up to date (${ALL_ROUTES.length} routes)\n`);
} else {
  writeFileSync(TARGET, text);
  process.stdout.write(`wrote ${ALL_ROUTES.length} routes to src/client/routes.ts\n`);
}
