// The port over the HTTP client answers as the port over the Engram it reaches, and a scope that
// names another tenant than the API key's is refused, not quietly moved to the key's.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createClient } from '../client/index.js';
import type { Engram, MemoryItem } from '../index.js';
import { serveEngram, type ServedEngram } from '../../test/helpers/served-engram.js';
import { tempEngram } from '../../test/helpers/temp-engram.js';
import { allPages, composeForPrompt, memoryPort, type MemoryPort } from './memory-port.js';

const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 's1' };

/** What identifies item versions (the server adds a readable `text` to each item it returns). */
const versions = (items: MemoryItem[]) =>
  items.map(({ id, key, version, value, status }) => ({ id, key, version, value, status }));

let engram: Engram;
let served: ServedEngram;
let library: MemoryPort;
let http: MemoryPort;
beforeAll(async () => {
  const t = await tempEngram();
  engram = t.engram;
  served = await serveEngram(t.engram, { auth: 'none' }, t.cleanup);
  library = memoryPort(engram);
  http = memoryPort(createClient({ baseUrl: served.url, apiKey: 'egk_unused' }));
  for (const name of ['snack', 'drink', 'fruit']) {
    await http.remember({
      scope,
      type: 'preferences',
      key: `pref:food:${name}`,
      value: { scope: 'food', name, value: `${name} of the day` },
    });
  }
  await http.commitTurn({
    scope,
    turn_id: 't1',
    messages: [
      { role: 'user', content: 'I live in Lisbon.' },
      { role: 'assistant', content: 'Noted.' },
    ],
  });
});
afterAll(() => served.close());

describe('memoryPort over the HTTP client', () => {
  it('answers every call as the port over the Engram behind the server', async () => {
    const calls: Array<(port: MemoryPort) => Promise<unknown>> = [
      async (port) =>
        versions(await allPages((cursor) => port.listItems({ scope: { user_id: 'mira' }, limit: 2, ...cursor }))),
      (port) =>
        allPages((cursor) =>
          port.listEvents({ scope: { user_id: 'mira', session_id: 's1' }, order: 'asc', limit: 1, ...cursor }),
        ),
      async (port) => versions(await port.history({ scope: { user_id: 'mira' }, key: 'pref:food:snack' })),
      async (port) =>
        (await port.searchItems({ scope: { user_id: 'mira' }, query: 'snack', k: 3 })).map((hit) => [
          hit.score,
          ...versions([hit.item]),
        ]),
      (port) => port.listUsers(undefined),
      async (port) => (await composeForPrompt(port, { scope, query: 'where do I live?' })).text,
    ];
    for (const call of calls) {
      const expected = await call(library);
      expect(expected).not.toHaveLength(0);
      expect(await call(http)).toEqual(expected);
    }
    expect(await http.listUsers('default')).toEqual(['mira']);
  });

  it("takes the key's tenant named in the scope, and refuses another", async () => {
    const diffs = await http.remember({
      scope: { ...scope, tenant_id: 'default' },
      type: 'preferences',
      key: 'pref:food:bread',
      value: { scope: 'food', name: 'bread', value: 'rye' },
    });
    expect(diffs).toMatchObject([{ action: 'created', key: 'pref:food:bread' }]);
    const elsewhere = { ...scope, tenant_id: 'acme' };
    const refused: Array<() => Promise<unknown>> = [
      () =>
        http.remember({
          scope: elsewhere,
          type: 'preferences',
          key: 'pref:food:tea',
          value: { scope: 'food', name: 'tea', value: 'green' },
        }),
      () => http.listItems({ scope: { tenant_id: 'acme', user_id: 'mira' } }),
      () => http.listEvents({ scope: { tenant_id: 'acme', user_id: 'mira' } }),
      () => composeForPrompt(http, { scope: elsewhere }),
      () => http.listUsers('acme'),
    ];
    for (const call of refused) await expect(call()).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(await engram.items.list({ scope: { tenant_id: 'acme', user_id: 'mira' } })).toEqual([]);
  });
});
