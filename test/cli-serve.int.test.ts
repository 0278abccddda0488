// `engram serve` and `engram mcp` as a user runs them: a real process on a real SQLite file, the
// admin key it prints on first start, curl-like requests over loopback, the official MCP client
// over stdio, and a clean stop on SIGTERM.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';

import { assertPacket, type MemoryPacket } from '../src/index.js';
import { engramCommand } from './helpers/engram-process.js';

const folder = mkdtempSync(join(tmpdir(), 'engram-serve-'));
const store = `sqlite:${join(folder, 'engram.db')}`;
const root = join(import.meta.dirname, '..');
const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };

afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Starts `engram serve` on a free port; resolves with the process and the banner once it is up. */
function serve(extra: string[] = []): Promise<{ child: ChildProcess; banner: string; exited: Promise<number | null> }> {
  const child = spawn(
    process.execPath,
    [...engramCommand(), '--store', store, 'serve', '--port', '0', '--quiet', '--no-worker', ...extra],
    { cwd: root },
  );
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('Stop with Ctrl-C')) resolve({ child, banner: out, exited });
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    void exited.then((code) => reject(new Error(`serve exited (${code}) before it was up:\n${out}`)));
  });
}

async function post<T>(url: string, key: string, body: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

describe('engram serve', () => {
  it('prints the API and docs addresses and an admin key once, commits and composes with it, and stops on SIGTERM', async () => {
    const { child, banner, exited } = await serve();
    try {
      const api = /API\s+(http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(banner)![1]!;
      expect(banner).toContain(`${api}/docs`);
      const key = /admin key[^:]*: (egk_[A-Za-z0-9_-]+)/.exec(banner)![1]!;
      const committed = await post<{ turn_id: string; events: unknown[] }>(`${api}/v1/turns`, key, {
        scope,
        turn_id: 't1',
        messages: [{ role: 'user', content: 'I prefer concise answers. We launch Atlas on June 12.' }],
      });
      expect(committed).toMatchObject({ status: 200, body: { turn_id: 't1' } });
      const composed = await post<{ packet: MemoryPacket; text: string }>(`${api}/v1/compose?render=markdown`, key, {
        scope,
        purpose: 'responder',
        cues: { query: 'launch date' },
      });
      expect(composed.status).toBe(200);
      assertPacket(composed.body.packet);
      expect(composed.body.text).toContain('Atlas');
      const docs = await fetch(`${api}/docs`);
      expect(docs.status).toBe(200);
      const unauthenticated = await post<{ code: string }>(`${api}/v1/compose`, 'egk_wrong', {
        scope,
        purpose: 'responder',
      });
      expect(unauthenticated).toMatchObject({ status: 401, body: { code: 'UNAUTHENTICATED' } });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    // A second start finds the key and prints none.
    const again = await serve();
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    expect(again.banner).not.toContain('admin key');
  });

  it('refuses --no-auth on an address that is not loopback', () => {
    const result = spawnSync(
      process.execPath,
      [...engramCommand(), '--store', store, 'serve', '--no-auth', '--host', '0.0.0.0', '--port', '0'],
      { cwd: root, encoding: 'utf8' },
    );
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/CONFIG_INVALID.*loopback/s);
  });
});

describe('engram mcp', () => {
  it('serves the official MCP client over stdio with an API key', async () => {
    const created = spawnSync(
      process.execPath,
      [...engramCommand(), '--store', store, '--json', 'keys', 'create', '--role', 'write'],
      { cwd: root, encoding: 'utf8' },
    );
    const key = (JSON.parse(created.stdout) as { key: string }).key;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...engramCommand(), '--store', store, 'mcp'],
      cwd: root,
      env: { ...(process.env as Record<string, string>), ENGRAM_API_KEY: key },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['commit_turn', 'compose_context', 'search_memory']),
      );
      const commit = await client.callTool({
        name: 'commit_turn',
        arguments: {
          scope: { ...scope, session_id: 's2' },
          turn_id: 'mcp-1',
          messages: [{ role: 'user', content: 'The venue is Lisbon.' }],
        },
      });
      expect(commit.isError).not.toBe(true);
      const compose = await client.callTool({
        name: 'compose_context',
        arguments: { scope: { ...scope, session_id: 's2' }, purpose: 'responder', render: 'markdown' },
      });
      expect(JSON.stringify(compose.content)).toContain('Lisbon');
    } finally {
      await client.close();
    }
    const refused = spawnSync(process.execPath, [...engramCommand(), '--store', store, 'mcp'], {
      cwd: root,
      encoding: 'utf8',
      input: '',
      env: { ...process.env, ENGRAM_API_KEY: '' },
    });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('ENGRAM_API_KEY');
    const badSurface = spawnSync(
      process.execPath,
      [...engramCommand(), '--store', store, 'mcp', '--no-auth', '--tools', 'tiny'],
      { cwd: root, encoding: 'utf8', input: '' },
    );
    expect(badSurface.status).not.toBe(0);
    expect(badSurface.stderr).toContain('--tools: must be lean or full');
  });
});
