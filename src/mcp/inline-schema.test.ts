import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';

import { validateCommitTurnRequest } from '../index.js';
import { inlineSchema, propertyOf, withoutProperty } from './inline-schema.js';

describe('inlineSchema', () => {
  it('inlines references across documents and keeps the keywords beside a $ref', () => {
    const compose = inlineSchema('urn:engram:schema:compose-request:v1');
    expect(JSON.stringify(compose)).not.toMatch(/"\$(ref|defs|id|schema)"/);
    expect(propertyOf(compose, ['scope', 'user_id'])).toMatchObject({ type: 'string', minLength: 1, maxLength: 256 });
    // as_of is a $ref to the timestamp with its own description beside it.
    expect(propertyOf(compose, ['as_of'])).toMatchObject({
      type: 'string',
      format: 'date-time',
      description: expect.stringContaining('as the stores were'),
    });
  });

  it('follows references relative to the document they are in', () => {
    const state = inlineSchema('urn:engram:schema:working-state:v1');
    // plan points into the MemoryPacket schema, two documents away.
    expect(propertyOf(state, ['plan'])).toMatchObject({ type: 'array', items: { required: ['step', 'status'] } });
    const search = inlineSchema('urn:engram:schema:memory-requests:v1#/$defs/search');
    expect(propertyOf(search, ['scope'])).toMatchObject({ required: ['user_id'] });
  });

  it('accepts and refuses what the library does', () => {
    const ajv = new Ajv2020({ strict: false });
    ajvFormats.default(ajv);
    const validate = ajv.compile(inlineSchema('urn:engram:schema:commit-turn-request:v1'));
    const turn = {
      scope: { user_id: 'u', agent_id: 'a', session_id: 's', run_id: 'r' },
      turn_id: 't1',
      messages: [{ role: 'user', content: 'hi' }],
    };
    expect(validate(turn)).toBe(true);
    expect(() => validateCommitTurnRequest(turn)).not.toThrow();
    const bad = { ...turn, messages: [{ role: 'robot', content: 'hi' }] };
    expect(validate(bad)).toBe(false);
    expect(() => validateCommitTurnRequest(bad)).toThrow();
  });

  it('names a reference that points at nothing', () => {
    expect(() => inlineSchema('urn:engram:schema:common:v1#/$defs/nothing')).toThrow(/points at nothing/);
    expect(() => inlineSchema('urn:engram:schema:unknown:v1')).toThrow(/no schema/);
  });
});

describe('withoutProperty', () => {
  it('drops a nested property and its required entry, and leaves the original alone', () => {
    const schema = {
      type: 'object',
      required: ['scope'],
      properties: {
        scope: { type: 'object', required: ['tenant_id', 'user_id'], properties: { tenant_id: {}, user_id: {} } },
      },
    };
    const trimmed = withoutProperty(schema, ['scope', 'tenant_id']);
    expect(trimmed).toEqual({
      type: 'object',
      required: ['scope'],
      properties: { scope: { type: 'object', required: ['user_id'], properties: { user_id: {} } } },
    });
    expect(schema.properties.scope.properties).toHaveProperty('tenant_id');
    expect(withoutProperty(schema, ['missing'])).toBe(schema);
  });
});
