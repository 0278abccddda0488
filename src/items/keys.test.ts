import { describe, expect, it } from 'vitest';

import { ValidationError } from '../spec/errors.js';
import { assertKey, makeKey, slug, typeOfKey } from './keys.js';

describe('key rules', () => {
  it('accepts a well-formed key of every type', () => {
    const keys: Array<[Parameters<typeof assertKey>[0], string]> = [
      ['profile', 'profile:user'],
      ['preferences', 'pref:writing:tone'],
      ['preferences', 'pref:food:diet'],
      ['preferences', 'pref:音乐:类型'],
      ['goals', 'goal:atlas:ship_v2'],
      ['tasks', 'task:atlas:brief_support'],
      ['decisions', 'decision:atlas:webinar_time'],
      ['entities', 'entity:repo:github.com/acme/atlas'],
      ['events', 'event:atlas:2026-12-01:launch'],
      ['cases', 'case:rag_debug:empty_results'],
      ['patterns', 'pattern:context_composing:slot_based'],
      ['procedure', 'procedure:release:announce'],
    ];
    for (const [type, key] of keys) {
      expect(() => assertKey(type, key)).not.toThrow();
      expect(typeOfKey(key)).toBe(type);
    }
  });

  it('refuses malformed keys with a typed error naming the rule', () => {
    const bad: Array<[Parameters<typeof assertKey>[0], string, string]> = [
      ['preferences', 'pref:Food:diet', 'must be a domain name'],
      ['preferences', 'pref:food-and-drink:tea', 'must be a domain name'],
      ['preferences', 'pref:writing', 'part(s)'],
      ['preferences', 'preference:writing:tone', 'must start with "pref:"'],
      ['events', 'event:atlas:tomorrow:launch', 'date YYYY-MM-DD'],
      ['tasks', 'task:atlas:has space', 'no spaces'],
      ['entities', 'entity:planet:mars', 'must be one of person'],
    ];
    for (const [type, key, message] of bad) {
      try {
        assertKey(type, key);
        expect.unreachable(key);
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).rule).toBe('key_rule');
        expect((error as ValidationError).field).toBe('key');
        expect((error as ValidationError).message).toContain(message);
      }
    }
  });

  it('builds keys from free text, keeping Chinese readable and entity names canonical', () => {
    expect(slug('Atlas 2.0 Launch!')).toBe('atlas_2_0_launch');
    expect(slug('发布计划')).toBe('发布计划');
    expect(slug('!!!')).toBe('untitled');
    expect(makeKey('decisions', ['Atlas', 'webinar time'])).toBe('decision:atlas:webinar_time');
    expect(makeKey('entities', ['url', 'https://GitHub.com/Acme/Atlas/'])).toBe('entity:url:github.com/acme/atlas');
    expect(makeKey('events', ['Atlas', '2026-12-01', 'Public launch'])).toBe('event:atlas:2026-12-01:public_launch');
  });
});
