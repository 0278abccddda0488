// runMcpStdio on in-process streams: requests piped in and the input closed at once still get
// every answer before it resolves.

import { PassThrough } from 'node:stream';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, expect, it } from 'vitest';

import type { ComposeRequest, Engram } from '../index.js';
import { tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';
import { runMcpStdio } from './stdio.js';

let t: TempEngram;
beforeEach(async () => {
  t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
});
afterEach(() => t.cleanup());

const scope = { user_id: 'ada', agent_id: 'helper', session_id: 's1', run_id: 'r1' };

/** The Engram with a compose that takes a while, so the input closes while it runs. */
function slowCompose(engram: Engram): Engram {
  return new Proxy(engram, {
    get(target, property) {
      if (property === 'compose') {
        return async (request: ComposeRequest) => {
          await new Promise((resolve) => setTimeout(resolve, 100));
          return target.compose(request);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

it('answers every request read before the input closed, then resolves', async () => {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk: Buffer) => {
    written += chunk.toString();
  });
  const served = runMcpStdio(
    slowCompose(t.engram),
    { key_id: 'key_pipe', tenant_id: 'default', role: 'write' },
    { input, output },
  );
  const messages = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'pipe', version: '1' },
      },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        name: 'commit_turn',
        arguments: { scope, turn_id: 't1', messages: [{ role: 'user', content: 'Hello' }] },
      },
    },
    {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'compose_context', arguments: { scope, purpose: 'responder', render: 'markdown' } },
    },
  ];
  input.end(messages.map((message) => `${JSON.stringify(message)}\n`).join(''));
  await served;
  const answers = written
    .trim()
    .split('\n')
    .map(
      (line) => JSON.parse(line) as { id: number; result: { isError?: boolean; content?: Array<{ text: string }> } },
    );
  expect(answers.map((answer) => answer.id).sort()).toEqual([1, 2, 3]);
  const byId = new Map(answers.map((answer) => [answer.id, answer.result]));
  expect(byId.get(2)!.content![0]!.text).toMatch(/^Committed turn t1/);
  expect(byId.get(3)!.content![0]!.text).toMatch(/^# Memory for the responder/);
});
