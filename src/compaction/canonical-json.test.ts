import { describe, expect, it } from 'vitest';

import { byCodeUnit, canonicalJson, jsonEqual } from './canonical-json.js';

describe('canonical JSON', () => {
  it('sorts object keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }, 'x'] })).toBe('{"a":[{"c":2,"d":1},"x"],"b":1}');
    expect(canonicalJson('text')).toBe('"text"');
    expect(canonicalJson(undefined)).toBe('null');
    expect(jsonEqual({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBe(true);
    expect(jsonEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(jsonEqual('x', { x: 1 })).toBe(false);
  });

  it('keeps a __proto__ key as a key', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as unknown;
    expect(canonicalJson(value)).toBe('{"__proto__":{"polluted":true},"a":1}');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('orders by code unit, not locale', () => {
    expect(['b', 'B', 'a', 'é', 'e'].sort(byCodeUnit)).toEqual(['B', 'a', 'b', 'e', 'é']);
  });
});
