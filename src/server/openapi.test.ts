import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';

import { openApiDocument } from './openapi.js';
import { API_ROUTES } from './server.js';
import { samples, UNKNOWN_IDS } from '../../test/server/requests.js';

const document = openApiDocument(API_ROUTES, { metricsAuth: false, mcp: true });

function refsOf(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const entry of node) refsOf(entry, found);
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else refsOf(value, found);
    }
  }
  return found;
}

function resolve(pointer: string): unknown {
  return pointer
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], document);
}

/** Ajv over the whole document, so route schemas resolve their #/components/… references. */
function validatorOf(pointer: string) {
  const ajv = new Ajv2020({ strict: false, validateSchema: false, allowUnionTypes: true });
  ajvFormats.default(ajv);
  ajv.addSchema({ ...document, $id: 'urn:test:openapi' });
  return ajv.compile({ $ref: `urn:test:openapi#${pointer}` });
}

const escape = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with every route of the table, its parameters, body and responses', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    for (const spec of API_ROUTES) {
      const operation = document.paths[spec.url.replace(/:(\w+)/g, '{$1}')]?.[spec.method.toLowerCase()];
      expect(operation, `${spec.method} ${spec.url}`).toMatchObject({
        operationId: spec.operationId,
        responses: { [String(spec.response.status)]: expect.any(Object), '401': expect.any(Object) },
      });
      if (spec.body !== undefined)
        expect(operation!['requestBody']).toMatchObject({
          content: { 'application/json': { schema: expect.any(Object) } },
        });
      if (spec.url.includes(':id'))
        expect(operation!['parameters']).toContainEqual(
          expect.objectContaining({ name: 'id', in: 'path', required: true }),
        );
    }
    expect(new Set(API_ROUTES.map((spec) => spec.operationId)).size).toBe(API_ROUTES.length);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/healthz', '/readyz', '/metrics', '/openapi.json', '/mcp']),
    );
  });

  it('resolves every reference inside the document (no urn: ids left)', () => {
    const refs = refsOf(document);
    expect(refs.length).toBeGreaterThan(100);
    for (const ref of refs) {
      expect(ref, ref).toMatch(/^#\//);
      expect(resolve(ref), ref).toBeDefined();
    }
    expect(JSON.stringify(document)).not.toMatch(/"\$id"|"\$schema"/);
  });

  it('gives every success response a schema that says something: a reference, properties, a union, a list or text', () => {
    const says = (schema: Record<string, unknown>): boolean =>
      ['$ref', 'properties', 'oneOf', 'anyOf', 'allOf', 'items', 'additionalProperties', 'const', 'enum'].some(
        (key) => schema[key] !== undefined,
      ) || schema['type'] === 'string';
    const checked: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(
          operation['responses'] as Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>,
        )) {
          if (!status.startsWith('2')) continue;
          const where = `${method.toUpperCase()} ${path} ${status}`;
          checked.push(where);
          // A 204 has no body to describe.
          if (status === '204') expect(response.content, where).toBeUndefined();
          else
            for (const [type, media] of Object.entries(response.content ?? { none: {} }))
              expect(media.schema !== undefined && says(media.schema), `${where} ${type}`).toBe(true);
        }
      }
    }
    expect(checked.length).toBeGreaterThan(API_ROUTES.length);
  });

  it('describes real requests: each sample body validates against its route schema, and a broken one does not', () => {
    const requests = samples('mira', UNKNOWN_IDS);
    for (const spec of API_ROUTES.filter((route) => route.body !== undefined)) {
      const pointer = `/paths/${escape(spec.url.replace(/:(\w+)/g, '{$1}'))}/${spec.method.toLowerCase()}/requestBody/content/application~1json/schema`;
      const validate = validatorOf(pointer);
      const body = requests[spec.operationId]!.body;
      expect(validate(body), `${spec.operationId}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(validate({ ...body, zzz_unknown: 1 }), spec.operationId).toBe(false);
    }
  });
});
