import { describe, expect, it } from 'vitest';

import { deepFreeze } from './read-only.js';

describe('deepFreeze', () => {
  it('freezes an object, its arrays and the objects inside them, and returns the same value', () => {
    const item = {
      key: 'tea',
      value: { name: 'sencha', notes: { origin: 'shizuoka' } },
      tags: ['green'],
      refs: [{ id: 'evt_1' }],
    };
    expect(deepFreeze(item)).toBe(item);
    for (const part of [item, item.value, item.value.notes, item.tags, item.refs, item.refs[0]])
      expect(Object.isFrozen(part)).toBe(true);
    expect(() => {
      item.value.notes.origin = 'uji';
    }).toThrow(TypeError);
    expect(() => item.tags.push('black')).toThrow(TypeError);
    expect(item).toEqual({
      key: 'tea',
      value: { name: 'sencha', notes: { origin: 'shizuoka' } },
      tags: ['green'],
      refs: [{ id: 'evt_1' }],
    });
  });

  it('gives back primitives and null as they are', () => {
    expect(deepFreeze(null)).toBeNull();
    expect(deepFreeze('tea')).toBe('tea');
    expect(deepFreeze(3)).toBe(3);
  });
});
