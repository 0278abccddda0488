// The OpenAPI 3.1 document, generated from the route table and the library's own JSON Schemas.
// Each library schema becomes a component named after its key in `schemas`; its `$id` references
// (urn:engram:schema:…#/$defs/…) are rewritten to JSON pointers into those components.

import { EngramError, schemas } from '../index.js';
import type { RouteSpec, SchemaObject } from './route-kit.js';
import type { QueryParam } from './route-query.js';
import { TENANT_PARAM } from './route-query.js';

/** An OpenAPI document (the parts this server writes). */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  tags: Array<{ name: string }>;
  security: Array<Record<string, string[]>>;
  paths: Record<string, Record<string, SchemaObject>>;
  components: {
    schemas: Record<string, SchemaObject>;
    responses: Record<string, SchemaObject>;
    securitySchemes: Record<string, SchemaObject>;
  };
}

const COMPONENTS = '#/components/schemas/';

/** The schema id (or, for the draft-07 reflection schema, its title) of each library schema. */
function idsOfSchemas(): Map<string, string> {
  const ids = new Map<string, string>();
  for (const [name, schema] of Object.entries(schemas)) {
    const id = (schema as { $id?: string }).$id ?? (schema as { title?: string }).title;
    if (id !== undefined) ids.set(id, name);
  }
  return ids;
}

function rewriteRef(target: string, owner: string, ids: Map<string, string>): string {
  if (target.startsWith('#')) return `${COMPONENTS}${owner}${target.slice(1)}`;
  const [base = '', pointer = ''] = target.split('#');
  const name = ids.get(base);
  if (name === undefined)
    throw new EngramError('INTERNAL', `openapi: no component for the schema reference ${target}`, { field: '$ref' });
  return `${COMPONENTS}${name}${pointer}`;
}

function rewrite(node: unknown, owner: string, ids: Map<string, string>): unknown {
  if (Array.isArray(node)) return node.map((entry) => rewrite(entry, owner, ids));
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || key === '$id') continue;
    out[key] = key === '$ref' && typeof value === 'string' ? rewriteRef(value, owner, ids) : rewrite(value, owner, ids);
  }
  return out;
}

/**
 * The library's JSON Schemas as OpenAPI components, every reference pointing into the document.
 *
 * @example
 * librarySchemaComponents()['composeRequest'] // { title: 'ComposeRequest', type: 'object', … }
 */
export function librarySchemaComponents(): Record<string, SchemaObject> {
  const ids = idsOfSchemas();
  const components: Record<string, SchemaObject> = {};
  for (const [name, schema] of Object.entries(schemas)) components[name] = rewrite(schema, name, ids) as SchemaObject;
  return components;
}

const PROBLEM_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['type', 'title', 'status', 'code', 'field', 'detail', 'request_id'],
  properties: {
    type: { type: 'string', description: 'urn:engram:problem:<code in kebab case>' },
    title: { type: 'string' },
    status: { type: 'integer' },
    code: { type: 'string', description: 'The stable error code (docs/http.md).' },
    field: { type: ['string', 'null'], description: 'The offending field: a dotted path, [i] for list items.' },
    detail: { type: 'string' },
    issues: {
      type: 'array',
      items: {
        type: 'object',
        required: ['field', 'rule', 'message'],
        properties: { field: { type: 'string' }, rule: { type: 'string' }, message: { type: 'string' } },
      },
    },
    retryable: {
      type: 'boolean',
      description:
        'On a conflict: true when another writer got there first and the same request may succeed if sent again.',
    },
    request_id: { type: 'string' },
  },
};

const PROBLEM_RESPONSE = { $ref: '#/components/responses/Problem' };

function parameterOf(param: QueryParam): SchemaObject {
  const value = param.enum === undefined ? { type: 'string' } : { type: 'string', enum: [...param.enum] };
  const schema =
    param.type === 'list' ? { type: 'array', items: value } : param.type === 'string' ? value : { type: param.type };
  return {
    name: param.name,
    in: 'query',
    required: param.required === true,
    description: param.description,
    schema,
    ...(param.type === 'list' ? { style: 'form', explode: false } : {}),
  };
}

function operationOf(spec: RouteSpec): SchemaObject {
  const pathParams = [...spec.url.matchAll(/:(\w+)/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const errorStatuses = [...new Set([400, 401, 403, 421, 429, 500, 503, ...(spec.errors ?? [])])].sort((a, b) => a - b);
  const response = spec.response;
  const content =
    response.schema === undefined
      ? {}
      : { content: { [response.contentType?.split(';')[0] ?? 'application/json']: { schema: response.schema } } };
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    description: `Needs a key with the ${spec.role} role (or higher).`,
    tags: [spec.tag],
    parameters: [...pathParams, ...[TENANT_PARAM, ...(spec.query ?? [])].map(parameterOf)],
    ...(spec.body === undefined
      ? {}
      : {
          requestBody: {
            required: spec.body.required,
            content: { [spec.body.contentType ?? 'application/json']: { schema: spec.body.schema } },
          },
        }),
    responses: {
      [String(response.status)]: { description: response.description, ...content },
      ...Object.fromEntries(errorStatuses.map((status) => [String(status), PROBLEM_RESPONSE])),
    },
  };
}

/** This document, as far as a reader checks it before reading on. */
const OPENAPI_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['openapi', 'info', 'paths', 'components'],
  properties: {
    openapi: { type: 'string', pattern: '^3\\.1\\.' },
    info: { type: 'object' },
    paths: { type: 'object' },
    components: { type: 'object' },
  },
};

/** What /mcp answers: JSON-RPC messages (MCP's own schema), or a stream of them as server-sent events. */
const MCP_CONTENT: SchemaObject = {
  'application/json': {
    schema: {
      type: ['object', 'array'],
      description: 'A JSON-RPC 2.0 response, or a batch of them (the MCP specification).',
      properties: { jsonrpc: { const: '2.0' } },
      items: { type: 'object' },
    },
  },
  'text/event-stream': { schema: { type: 'string', description: 'Server-sent events, each a JSON-RPC message.' } },
};

/** Routes outside /v1: health, readiness, metrics, this document, and (when mounted) MCP. */
function operationalPaths(options: { metricsAuth: boolean; mcp: boolean }): OpenApiDocument['paths'] {
  const open = { security: [] };
  const text = (description: string, type: string) => ({
    description,
    content: { [type]: { schema: { type: 'string' } } },
  });
  const paths: OpenApiDocument['paths'] = {
    '/healthz': {
      get: {
        operationId: 'healthz',
        summary: 'The process is up',
        tags: ['operations'],
        ...open,
        responses: {
          '200': {
            description: 'Up.',
            content: { 'application/json': { schema: { type: 'object', properties: { status: { const: 'ok' } } } } },
          },
        },
      },
    },
    '/readyz': {
      get: {
        operationId: 'readyz',
        summary: 'The store answers a read',
        tags: ['operations'],
        ...open,
        responses: {
          '200': {
            description: 'Ready.',
            content: { 'application/json': { schema: { type: 'object', properties: { status: { const: 'ready' } } } } },
          },
          '503': PROBLEM_RESPONSE,
        },
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
        summary: 'Prometheus metrics',
        tags: ['operations'],
        ...(options.metricsAuth ? {} : open),
        responses: { '200': text('Prometheus text exposition.', 'text/plain') },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'openapi',
        summary: 'This document',
        tags: ['operations'],
        ...open,
        responses: {
          '200': { description: 'OpenAPI 3.1.', content: { 'application/json': { schema: OPENAPI_SCHEMA } } },
        },
      },
    },
  };
  if (options.mcp) {
    const mcp = (operationId: string) => ({
      operationId,
      summary: 'MCP over streamable HTTP (JSON-RPC)',
      tags: ['mcp'],
      responses: {
        '200': { description: 'A JSON-RPC response or an event stream.', content: MCP_CONTENT },
        '401': PROBLEM_RESPONSE,
        '403': PROBLEM_RESPONSE,
        '415': PROBLEM_RESPONSE,
        '421': PROBLEM_RESPONSE,
        '429': PROBLEM_RESPONSE,
      },
    });
    paths['/mcp'] = { post: mcp('mcpPost'), get: mcp('mcpGet'), delete: mcp('mcpDelete') };
  }
  return paths;
}

/**
 * The OpenAPI 3.1 document of a route table.
 *
 * @example
 * const document = openApiDocument(allRoutes, { metricsAuth: false, mcp: false });
 * document.paths['/v1/compose'].post.operationId // 'compose'
 */
export function openApiDocument(
  specs: readonly RouteSpec[],
  options: { metricsAuth: boolean; mcp: boolean },
): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = operationalPaths(options);
  for (const spec of specs) {
    const path = spec.url.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [spec.method.toLowerCase()]: operationOf(spec) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Engram HTTP API',
      version: '1.0.0',
      description:
        "Memory runtime for LLM agents. Authenticate with Authorization: Bearer <key>; the key's tenant scopes every call. Errors are application/problem+json (docs/http.md).",
    },
    tags: [...new Set(specs.map((spec) => spec.tag)), 'operations'].map((name) => ({ name })),
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      schemas: { ...librarySchemaComponents(), Problem: PROBLEM_SCHEMA },
      responses: {
        Problem: {
          description: 'A problem document (RFC 9457) with the error code and field.',
          content: { 'application/problem+json': { schema: { $ref: `${COMPONENTS}Problem` } } },
        },
      },
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key (egk_…).' } },
    },
  };
}
