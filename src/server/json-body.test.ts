import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';

import { forbiddenProperty, parseJsonBody } from './json-body.js';

const parse = (text: string) => parseJsonBody({} as FastifyRequest, text);

describe('the JSON body parser', () => {
  it('finds `__proto__` and `constructor.prototype` anywhere, by path', () => {
    expect(forbiddenProperty(JSON.parse('{"a":[{"b":1},{"__proto__":{}}]}'))).toEqual({
      field: 'a[1].__proto__',
      name: '__proto__',
    });
    expect(forbiddenProperty(JSON.parse('{"x":{"constructor":{"prototype":{}}}}'))).toEqual({
      field: 'x.constructor.prototype',
      name: 'constructor.prototype',
    });
    expect(forbiddenProperty(JSON.parse('{"constructor":"text","prototype":1,"key":"__proto__"}'))).toBeNull();
    expect(forbiddenProperty(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`))).toBeNull();
  });

  it('refuses them as VALIDATION_FAILED (propertyNames); empty or broken text is INVALID_JSON', () => {
    expect(() => parse('{"scope":{"__proto__":{"admin":true}}}')).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', field: 'scope.__proto__' }),
    );
    expect(() => parse('')).toThrow(expect.objectContaining({ code: 'INVALID_JSON' }));
    expect(() => parse('{"a":')).toThrow(expect.objectContaining({ code: 'INVALID_JSON' }));
    expect(parse('\uFEFF{"a":[1]}')).toEqual({ a: [1] });
  });
});
