// Tool arguments under the input rules, as a client sees them over an in-memory transport: text with
// a lone surrogate or U+0000 is an isError result naming the field (before any tool reads it), and
// compose_context takes only the cues the compose request defines.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';
import { createMcpServer } from './server.js';
import { ERROR_META_KEY } from './tool-result.js';

const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };

let t: TempEngram;
let client: Client;

async function call(name: string, args: Record<string, unknown>): Promise<unknown> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBe(true);
  return result._meta?.[ERROR_META_KEY];
}

beforeEach(async () => {
  t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: 'engram-test', version: '1.0.0' });
  await Promise.all([
    createMcpServer(t.engram, { key_id: 'key_acme', tenant_id: 'acme', role: 'write' }).connect(serverSide),
    client.connect(clientSide),
  ]);
});
afterEach(async () => {
  await client.close();
  await t.cleanup();
});

describe('MCP arguments and the input rules', () => {
  it('a lone surrogate or U+0000 in any argument, property names included, is VALIDATION_FAILED naming it, and nothing is written', async () => {
    expect(
      await call('commit_turn', {
        scope: { ...scope, user_id: 'x\ud800' },
        turn_id: 't1',
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'scope.user_id',
      issues: [expect.objectContaining({ rule: 'well_formed' })],
    });
    expect(
      await call('commit_turn', {
        scope,
        turn_id: 't2',
        messages: [{ role: 'user', content: 'hi', metadata: { ['a\u0000']: 1 } }],
      }),
    ).toMatchObject({
      field: 'messages[0].metadata.a\\u0000',
      issues: [expect.objectContaining({ rule: 'no_nul' })],
    });
    expect(await call('search_memory', { scope: { user_id: 'mira' }, query: '\udfff' })).toMatchObject({
      field: 'query',
    });
    expect(await t.engram.events.list({ scope: { tenant_id: 'acme', user_id: 'mira' } })).toEqual([]);
  });

  it('compose_context takes a closed set of cues: its schema says so and an unknown cue is refused by name', async () => {
    const { tools } = await client.listTools();
    const cues = (
      tools.find((tool) => tool.name === 'compose_context')!.inputSchema.properties as Record<
        string,
        { additionalProperties?: unknown; properties?: object }
      >
    )['cues']!;
    expect(cues.additionalProperties).toBe(false);
    // The lean list shows the cues a model uses; the request takes tags and time_range too.
    expect(Object.keys(cues.properties ?? {}).sort()).toEqual(['entities', 'keywords', 'query']);
    expect(
      await call('compose_context', { scope, purpose: 'responder', cues: { query: 'tea', junk: 'x'.repeat(10_000) } }),
    ).toMatchObject({ code: 'VALIDATION_FAILED', field: 'cues.junk' });
    expect(await t.engram.builds.list({ tenant_id: 'acme' })).toEqual([]);
    const tagged = (await client.callTool({
      name: 'compose_context',
      arguments: { scope, purpose: 'responder', cues: { query: 'tea', tags: ['drinks'] } },
    })) as CallToolResult;
    expect(tagged.isError).toBeFalsy();
  });
});
