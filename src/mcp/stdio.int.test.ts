// The official MCP client drives `runMcpStdio` in a real child process, as an MCP host (Claude
// Desktop, an IDE) would: list the tools, commit a turn, compose, search; closing stdin ends it.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngram, type MemoryPacket } from '../index.js';

const root = join(import.meta.dirname, '..', '..');
const folder = mkdtempSync(join(tmpdir(), 'engram-mcp-stdio-'));
const path = join(folder, 'engram.db');
const scope = { user_id: 'ada', agent_id: 'helper', session_id: 's1', run_id: 'r1' };

let client: Client;
let transport: StdioClientTransport;
let stderr = '';

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result;
}

function textOf(result: CallToolResult): string {
  const [first] = result.content;
  return first?.type === 'text' ? first.text : '';
}

beforeAll(async () => {
  transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', join('test', 'helpers', 'mcp-stdio-server.ts'), path],
    // tsx resolves from the working directory.
    cwd: root,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  client = new Client({ name: 'engram-stdio-test', version: '1.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('MCP over stdio with the official client', () => {
  it('lists the tools with titles, schemas and hints', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'engram' });
    expect(client.getInstructions()).toContain('compose_context');
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(9);
    const commit = tools.find((tool) => tool.name === 'commit_turn')!;
    expect(commit).toMatchObject({
      title: 'Commit a turn to memory',
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    });
    expect(commit.inputSchema).toMatchObject({ type: 'object', required: ['scope', 'turn_id'] });
    expect(Object.keys((commit.inputSchema.properties as { scope: { properties: object } }).scope.properties)).toEqual([
      'user_id',
      'agent_id',
      'session_id',
      'run_id',
    ]);
    expect(tools.find((tool) => tool.name === 'search_memory')!.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('commits a turn, composes and searches', async () => {
    const committed = await call('commit_turn', {
      scope,
      turn_id: 'turn-1',
      messages: [
        { role: 'user', content: 'I prefer concise answers in writing. We launch Atlas on June 12.' },
        { role: 'assistant', content: 'Noted: concise answers, Atlas launches June 12.' },
      ],
    });
    expect(committed.structuredContent).toMatchObject({ turn_id: 'turn-1', replayed: false });
    expect(textOf(committed)).toMatch(/^Committed turn turn-1: 2 events/);

    const composed = await call('compose_context', {
      scope,
      purpose: 'responder',
      render: 'markdown',
      full_packet: true,
      cues: { keywords: ['writing'] },
    });
    const { packet } = composed.structuredContent as { packet: MemoryPacket };
    expect(packet.meta).toMatchObject({ purpose: 'responder', scope: { user_id: 'ada', tenant_id: 'default' } });
    expect(textOf(composed)).toMatch(/^# Memory for the responder/);

    await call('remember', {
      scope: { user_id: 'ada', agent_id: 'helper' },
      type: 'decisions',
      key: 'decision:atlas:launch_date',
      value: { project: 'atlas', topic: 'launch_date', decision: 'June 12' },
    });
    const found = await call('search_memory', {
      scope: { user_id: 'ada', agent_id: 'helper' },
      query: 'Atlas launch date',
    });
    const keys = (found.structuredContent as { hits: Array<{ item: { key: string } }> }).hits.map(
      (hit) => hit.item.key,
    );
    expect(keys).toContain('decision:atlas:launch_date');
  });

  it('answers bad arguments with an error result the model can read', async () => {
    const result = (await client.callTool({
      name: 'compose_context',
      arguments: { scope, purpose: 'chat' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^VALIDATION_FAILED \(field: purpose\)/);
  });

  it('ends when stdin closes, with everything written', async () => {
    const started = Date.now();
    await client.close();
    // The client sends SIGTERM after 2 s if the server has not exited on its own.
    expect(Date.now() - started).toBeLessThan(2000);
    expect(stderr).toBe('');
    const engram = await createEngram({ store: `sqlite:${path}`, embeddings: { provider: 'none' } });
    try {
      expect(await engram.events.list({ scope })).toHaveLength(2);
    } finally {
      await engram.close();
    }
  });
});
