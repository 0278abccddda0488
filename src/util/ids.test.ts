import { describe, expect, it } from 'vitest';

import { evidenceId, isId, newId } from './ids.js';

describe('ids', () => {
  it('makes prefixed ULIDs that match the reflection schema pattern and sort in creation order', () => {
    const ids = Array.from({ length: 500 }, () => newId('evt', 1_700_000_000_000));
    for (const id of ids) expect(id).toMatch(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(isId('evt', ids[0]!)).toBe(true);
    expect(isId('mem', ids[0]!)).toBe(false);
  });

  it('gives the same evidence the same id, and different corpora, spans or quotes different ids', () => {
    const base = { corpus: 'events', chunk_id: 'evt_01J0000000000000000000000', span: [0, 10] as const };
    expect(evidenceId(base)).toBe(evidenceId({ ...base }));
    expect(evidenceId(base)).toMatch(/^evd_[0-9A-HJKMNP-TV-Z]{26}$/);
    const others = [
      evidenceId({ ...base, corpus: 'docs' }),
      evidenceId({ ...base, span: [0, 11] }),
      evidenceId({ ...base, quote: 'hello' }),
      evidenceId({ ...base, chunk_id: 'evt_01J0000000000000000000001' }),
    ];
    expect(new Set([evidenceId(base), ...others]).size).toBe(5);
  });
});
