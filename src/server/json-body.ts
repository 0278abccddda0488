// The JSON body parser of every route: a body that is empty or not JSON is 400 INVALID_JSON, and
// one that carries a `__proto__` key (or `constructor.prototype`), which would reach an object's
// prototype when copied, is 400 VALIDATION_FAILED naming the field (rule `propertyNames`).

import type { FastifyInstance, FastifyRequest } from 'fastify';

import { ValidationError } from '../index.js';
import { HttpError } from './http-error.js';

type Frame = [value: unknown, path: string];

const child = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

/** A property a body may not carry: where it is, and which rule it breaks. */
export interface ForbiddenProperty {
  field: string;
  name: '__proto__' | 'constructor.prototype';
}

/**
 * The first property a JSON value may not carry, or null. It walks without recursion, so a
 * deeply nested body cannot exhaust the stack here.
 *
 * @example
 * forbiddenProperty(JSON.parse('{"scope":{"__proto__":{}}}')) // { field: 'scope.__proto__', name: '__proto__' }
 */
export function forbiddenProperty(value: unknown): ForbiddenProperty | null {
  const stack: Frame[] = [[value, '']];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        if (typeof item === 'object' && item !== null) stack.push([item, `${path}[${index}]`]);
      });
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    for (const [key, item] of Object.entries(node)) {
      if (key === '__proto__') return { field: child(path, key), name: '__proto__' };
      if (key === 'constructor' && typeof item === 'object' && item !== null && Object.hasOwn(item, 'prototype')) {
        return { field: child(child(path, key), 'prototype'), name: 'constructor.prototype' };
      }
      if (typeof item === 'object' && item !== null) stack.push([item, child(path, key)]);
    }
  }
  return null;
}

/**
 * Parses a JSON body (Fastify's `parseAs: 'string'` parser; the body limit is applied before).
 *
 * @example
 * parseJsonBody(request, '{"a":1}') // { a: 1 }
 */
export function parseJsonBody(_request: FastifyRequest, body: string): unknown {
  // A leading byte order mark is not part of the value (Fastify's own parser drops it too).
  const text = body.startsWith('\uFEFF') ? body.slice(1) : body;
  if (text === '')
    throw new HttpError('INVALID_JSON', 'the body is empty; with Content-Type: application/json send a JSON value');
  let value: unknown;
  try {
    // JSON.parse makes `__proto__` an own property (it never sets a prototype); the check below refuses it.
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError(
      'INVALID_JSON',
      `the body is not valid JSON: ${error instanceof Error ? error.message : 'unreadable'}`,
    );
  }
  // Only a text that spells one of the names, or escapes characters, can carry one: most bodies
  // skip the walk (it costs about as much as parsing).
  const mayCarry = text.includes('__proto__') || text.includes('constructor') || text.includes('\\u');
  const forbidden = mayCarry ? forbiddenProperty(value) : null;
  if (forbidden !== null) {
    throw ValidationError.of(
      forbidden.field,
      'propertyNames',
      `\`${forbidden.name}\` is not an allowed property name (it would reach the prototype of the object it is read into)`,
    );
  }
  return value;
}

/**
 * Replaces Fastify's JSON parser with parseJsonBody.
 *
 * @example
 * acceptJson(app);
 */
export function acceptJson(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    try {
      done(null, parseJsonBody(request, body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
