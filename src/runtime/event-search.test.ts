import { afterEach, describe, expect, it } from 'vitest';

import { tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';
import { MAX_EVENT_SEARCH_DEPTH } from './event-search.js';

const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
const search = { scope: { user_id: 'mira' }, query: 'release' };

describe('event search, a page at a time', () => {
  let t: TempEngram;
  let turn = 0;
  afterEach(async () => {
    await t.cleanup();
  });

  async function say(content: string, expiresAt?: string): Promise<string> {
    t.clock.advance(1000);
    turn += 1;
    const result = await t.engram.commitTurn({
      scope,
      turn_id: `t${turn}`,
      messages: [{ role: 'user', content, ...(expiresAt === undefined ? {} : { expires_at: expiresAt }) }],
    });
    return result.events[0]!.event_id;
  }

  it('pages through the hits as the first page ranked them: events recorded since neither shift nor repeat them', async () => {
    t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    for (let index = 0; index < 45; index += 1)
      await say(`Release note ${index}: the release of module ${index} shipped.`);
    const all = (await t.engram.events.search({ ...search, limit: 200 })).map((hit) => hit.event.id);
    expect(all).toHaveLength(45);
    const first = await t.engram.events.searchPage({ ...search, limit: 20 });
    expect(first.hits.map((hit) => hit.event.id)).toEqual(all.slice(0, 20));
    // Matches as strong, and newer (which wins a tie): without the cursor's time they would push the pages down.
    const newer = [
      await say('Release note 45: the release of module 45 shipped.'),
      await say('Release note 46: the release of module 46 shipped.'),
    ];
    const second = await t.engram.events.searchPage({ ...search, limit: 20, cursor: first.next_cursor! });
    expect(second.hits.map((hit) => hit.event.id)).toEqual(all.slice(20, 40));
    const third = await t.engram.events.searchPage({ ...search, limit: 20, cursor: second.next_cursor! });
    expect(third.hits.map((hit) => hit.event.id)).toEqual(all.slice(40));
    expect(third.next_cursor).toBeNull();
    // A new search sees them.
    const fresh = await t.engram.events.searchPage({ ...search, limit: 200 });
    expect(fresh.hits).toHaveLength(47);
    expect(fresh.hits.map((hit) => hit.event.id)).toEqual(expect.arrayContaining(newer));
  });

  it('resumes right after the last hit shown when an event ranked above it has expired since', async () => {
    t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    for (let index = 0; index < 9; index += 1) await say(`Release note ${index}.`);
    // The newest: it ranks first of equals, on the first page.
    const expiring = await say('Release plan draft.', '2026-06-01T12:05:00.000Z');
    const all = (await t.engram.events.search({ ...search, limit: 200 })).map((hit) => hit.event.id);
    expect(all.slice(0, 4)).toContain(expiring);
    const first = await t.engram.events.searchPage({ ...search, limit: 4 });
    t.clock.set('2026-06-01T12:10:00.000Z');
    const rest: string[] = [];
    for (let cursor = first.next_cursor; cursor !== null;) {
      const page = await t.engram.events.searchPage({ ...search, limit: 4, cursor });
      rest.push(...page.hits.map((hit) => hit.event.id));
      cursor = page.next_cursor;
    }
    const shown = [...first.hits.map((hit) => hit.event.id), ...rest];
    expect(shown.filter((id) => id !== expiring)).toEqual(all.filter((id) => id !== expiring));
    expect(new Set(shown).size).toBe(shown.length);
  });

  it('refuses a cursor of another search, and one it did not make', async () => {
    t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    for (let index = 0; index < 5; index += 1) await say(`Release note ${index}.`);
    const first = await t.engram.events.searchPage({ ...search, limit: 2 });
    expect(first.next_cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    await expect(
      t.engram.events.searchPage({ ...search, query: 'note', cursor: first.next_cursor! }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'cursor',
      issues: [expect.objectContaining({ rule: 'same_search' })],
    });
    await expect(
      t.engram.events.searchPage({ scope: { user_id: 'bob' }, query: 'release', cursor: first.next_cursor! }),
    ).rejects.toMatchObject({ field: 'cursor' });
    await expect(t.engram.events.searchPage({ ...search, cursor: 'not_a_cursor' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'cursor',
      issues: [expect.objectContaining({ rule: 'format' })],
    });
    await expect(t.engram.events.searchPage({ ...search, cursor: 'a.b' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'cursor',
      issues: [expect.objectContaining({ rule: 'pattern' })],
    });
    // A page of the whole result has no next page; the old call returns the same hits.
    const whole = await t.engram.events.searchPage({ ...search, limit: 5 });
    expect(whole.next_cursor).toBeNull();
    expect((await t.engram.events.search({ ...search, limit: 5 })).map((hit) => hit.event.id)).toEqual(
      whole.hits.map((hit) => hit.event.id),
    );
    expect(MAX_EVENT_SEARCH_DEPTH).toBeGreaterThanOrEqual(200);
  });
});
