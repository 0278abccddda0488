// `engram mcp` as a real child process driven by the official MCP client over stdio, with its key
// revoked (through the library, on the same SQLite file) while it runs: every call after that is
// refused UNAUTHENTICATED and writes nothing; the process itself keeps answering.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngram, type Engram } from '../src/index.js';
import { ERROR_META_KEY } from '../src/mcp/index.js';
import { engramCommand } from './helpers/engram-process.js';

const root = join(import.meta.dirname, '..');
const folder = mkdtempSync(join(tmpdir(), 'engram-cli-mcp-'));
const store = `sqlite:${join(folder, 'engram.db')}`;
const scope = { user_id: 'ada', agent_id: 'helper', session_id: 's1', run_id: 'r1' };

let engram: Engram;
let client: Client;
let keyId: string;

function turn(id: string): Record<string, unknown> {
  return { scope, turn_id: id, messages: [{ role: 'user', content: `Turn ${id}: I prefer tea.` }] };
}

beforeAll(async () => {
  engram = await createEngram({ store, embeddings: { provider: 'none' } });
  const { info, key } = await engram.keys.create({ role: 'write', label: 'stdio host' });
  keyId = info.id;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...engramCommand(), '--store', store, 'mcp'],
    env: { ...(process.env as Record<string, string>), ENGRAM_API_KEY: key },
    // The command resolves its packages from the repository root.
    cwd: root,
    stderr: 'pipe',
  });
  client = new Client({ name: 'engram-cli-mcp-test', version: '1.0.0' });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await engram?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('engram mcp re-checks its key on every call', () => {
  it('writes while the key is good', async () => {
    const result = (await client.callTool({ name: 'commit_turn', arguments: turn('before') })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(await engram.events.list({ scope })).toHaveLength(1);
  });

  it('refuses the next write and read once the key is revoked, writing nothing', async () => {
    await engram.keys.revoke(keyId);
    const write = (await client.callTool({ name: 'commit_turn', arguments: turn('after') })) as CallToolResult;
    expect(write.isError).toBe(true);
    expect(write._meta?.[ERROR_META_KEY]).toMatchObject({ code: 'UNAUTHENTICATED' });
    const [text] = write.content;
    expect(text?.type === 'text' ? text.text : '').toMatch(/^UNAUTHENTICATED: the API key of this server was revoked/);
    const read = (await client.callTool({ name: 'get_working_state', arguments: { scope } })) as CallToolResult;
    expect(read._meta?.[ERROR_META_KEY]).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(await engram.events.list({ scope })).toHaveLength(1);
  });
});
