import { describe, expect, it } from 'vitest';

import { HttpError } from './http-error.js';
import { withDeadline, withPathId } from './route-kit.js';
import { page, parseQuery, type QueryParam } from './route-query.js';

const params: QueryParam[] = [
  { name: 'user_id', type: 'string', description: '' },
  { name: 'limit', type: 'integer', description: '' },
  { name: 'kinds', type: 'list', description: '' },
  { name: 'include_expired', type: 'boolean', description: '' },
  { name: 'order', type: 'string', enum: ['asc', 'desc'], description: '' },
];

describe('parseQuery', () => {
  it('types values: integers, booleans, lists from repeats or commas', () => {
    expect(
      parseQuery(
        {
          user_id: 'u1',
          limit: '20',
          kinds: ['message,marker', 'tool_result'],
          include_expired: 'true',
          order: 'desc',
        },
        params,
      ),
    ).toEqual({
      user_id: 'u1',
      limit: 20,
      kinds: ['message', 'marker', 'tool_result'],
      include_expired: true,
      order: 'desc',
    });
  });

  it('refuses unknown parameters, repeats of single values, non-integers and values outside an enum, naming the parameter', () => {
    expect(() => parseQuery({ colour: 'red', size: 'xl' }, params)).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        field: 'colour',
        issues: [expect.objectContaining({ field: 'colour' }), expect.objectContaining({ field: 'size' })],
      }),
    );
    expect(() => parseQuery({ user_id: ['a', 'b'] }, params)).toThrow(
      expect.objectContaining({ field: 'user_id', rule: 'type' }),
    );
    expect(() => parseQuery({ limit: '1.5' }, params)).toThrow(
      expect.objectContaining({ field: 'limit', rule: 'type' }),
    );
    expect(() => parseQuery({ include_expired: 'yes' }, params)).toThrow(
      expect.objectContaining({ field: 'include_expired' }),
    );
    expect(() => parseQuery({ order: 'sideways' }, params)).toThrow(
      expect.objectContaining({ field: 'order', rule: 'enum' }),
    );
  });
});

describe('helpers', () => {
  it('page: next_cursor is the last id of a full page', () => {
    expect(page([{ id: 'a' }, { id: 'b' }], 2, (item) => item.id)).toEqual({
      items: [{ id: 'a' }, { id: 'b' }],
      next_cursor: 'b',
    });
    expect(page([{ id: 'a' }], 2, (item) => item.id).next_cursor).toBeNull();
    expect(page([], 2, (item: { id: string }) => item.id).next_cursor).toBeNull();
  });

  it('withPathId adds the path id, and refuses a body naming another one', () => {
    expect(withPathId(undefined, 'candidate_id', 'cand_1')).toEqual({ candidate_id: 'cand_1' });
    expect(withPathId({ by: 'mira', candidate_id: 'cand_1' }, 'candidate_id', 'cand_1')).toEqual({
      by: 'mira',
      candidate_id: 'cand_1',
    });
    expect(() => withPathId({ candidate_id: 'cand_2' }, 'candidate_id', 'cand_1')).toThrow(
      expect.objectContaining({ field: 'candidate_id' }),
    );
    expect(withPathId(['x'], 'candidate_id', 'cand_1')).toEqual(['x']);
  });

  it('withDeadline answers TIMEOUT when the work is slower, else the work', async () => {
    await expect(withDeadline(new Promise((resolve) => setTimeout(resolve, 200)), 10)).rejects.toSatisfy(
      (error) => HttpError.isInstance(error) && error.code === 'TIMEOUT',
    );
    await expect(withDeadline(Promise.resolve(7), 1000)).resolves.toBe(7);
  });
});
