import { describe, expect, it } from 'vitest';

import { tempEngramEach } from '../../test/helpers/temp-engram.js';
import { allPages, composeForPrompt, memoryPort } from './memory-port.js';

const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 's1' };
const snack = {
  type: 'preferences' as const,
  key: 'pref:food:snack',
  value: { scope: 'food', name: 'snack', value: 'rice crackers' },
};

const current = tempEngramEach();

describe('composeForPrompt', () => {
  it('composes for the responder in Markdown, the query as its cue', async () => {
    const port = memoryPort(current.engram);
    await port.remember({ scope, ...snack });
    const { text, packet } = await composeForPrompt(port, { scope, query: 'a snack for the hike' });
    expect(packet.meta).toMatchObject({ purpose: 'responder', cues: { query: 'a snack for the hike' } });
    expect(text.startsWith('# Memory for the responder')).toBe(true);
    expect(text).toContain('rice crackers');
  });

  it('cuts a query to the 10,000 characters compose reads, and leaves out an empty one', async () => {
    const port = memoryPort(current.engram);
    const long = await composeForPrompt(port, { scope, query: '涮'.repeat(10_001) });
    expect([...(long.packet.meta.cues?.query ?? '')]).toHaveLength(10_000);
    const none = await composeForPrompt(port, { scope, query: '', purpose: 'planner', format: 'xml' });
    expect(none.packet.meta).toMatchObject({ purpose: 'planner' });
    expect(none.packet.meta.cues?.query).toBeUndefined();
    expect(none.text.startsWith('<memory')).toBe(true);
  });
});

describe('memoryPort over an Engram', () => {
  it('pages a listing: a full page names the next, a short one ends it', async () => {
    const port = memoryPort(current.engram);
    for (const name of ['snack', 'drink', 'fruit'])
      await port.remember({ scope, ...snack, key: `pref:food:${name}`, value: { ...snack.value, name } });
    const first = await port.listItems({ scope: { user_id: 'mira' }, limit: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.next_cursor).toBe(first.items[1]!.id);
    const all = await allPages((cursor) => port.listItems({ scope: { user_id: 'mira' }, limit: 2, ...cursor }));
    expect(all.map((item) => item.key).sort()).toEqual(['pref:food:drink', 'pref:food:fruit', 'pref:food:snack']);
    expect(await port.listUsers(undefined)).toEqual(['mira']);
  });
});
