// A canary string in `secret` events must never leave Engram: not in any packet or its prompt text,
// search result, export, snapshot or review candidate, not in a request to a model provider (embedding
// or LLM, captured by a loopback OpenAI-compatible server), not in an HTTP or MCP answer of a real
// `engram serve`, and not in its log lines. (The inspector's own wire check lives in test/ui.)

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngram, renderPacket, type CommitTurnRequest, type Engram } from '../../src/index.js';
import { startEngram, type EngramProcess } from '../helpers/engram-process.js';
import {
  chatReply,
  startOpenAiCompatibleServer,
  type OpenAiCompatibleServer,
} from '../helpers/openai-compatible-server.js';
import { recordOutcome } from './results.js';

const CANARY = `vaultcanary${Date.now().toString(36)}`;
const markers = ['PLAN_DONE', 'ACT_DONE', 'OBSERVE_DONE', 'STEP_DONE'] as const;
const purposes = ['planner', 'tool', 'responder'] as const;
const surfaces: Record<string, number> = {};

/** Counts a surface checked and asserts the canary is not in it. */
function clean(surface: string, text: string): void {
  surfaces[surface] = (surfaces[surface] ?? 0) + 1;
  expect(text, surface).not.toContain(CANARY);
}

/** Every other field of an event a caller writes, each naming the canary: they describe the secret too. */
function describing(what: 'message' | 'tool') {
  const fields = { tags: [`tag-${CANARY}`], metadata: { note: CANARY }, snapshot_ref: `snapshot://${CANARY}` };
  return what === 'tool'
    ? fields
    : { ...fields, speaker: `speaker-${CANARY}`, resonance_links: [{ target_id: `link-${CANARY}`, strength: 0.9 }] };
}

/** A session that says secret things in every way a turn can, next to ordinary ones. */
function turns(scope: { user_id: string; agent_id: string; session_id: string; run_id: string }): CommitTurnRequest[] {
  return [
    {
      scope,
      turn_id: 's1',
      messages: [
        { role: 'user', content: 'I prefer concise answers and my vault is in Lisbon.' },
        { role: 'assistant', content: 'Noted.' },
      ],
      run: { objective: 'Open the vault', done_definition: 'vault opened' },
    },
    {
      scope,
      turn_id: 's2',
      messages: [
        {
          role: 'user',
          content: `The vault code is ${CANARY}. I prefer ${CANARY} as my password.`,
          sensitivity: 'secret',
          ...describing('message'),
        },
      ],
    },
    {
      scope,
      turn_id: 's3',
      messages: [{ role: 'user', content: 'Check the vault code please.' }],
      tool_results: [
        {
          tool_name: `vault_lookup_${CANARY}`,
          call_id: `call-${CANARY}`,
          content: { code: CANARY },
          sensitivity: 'secret',
          ...describing('tool'),
        },
      ],
    },
    { scope, turn_id: 's4', markers: [...markers] },
    { scope, turn_id: 's5', markers: [...markers] },
  ];
}

/** A provider that answers every chat with empty extractions and every embedding with a vector. */
function provider(): Promise<OpenAiCompatibleServer> {
  return startOpenAiCompatibleServer({ chat: () => chatReply(JSON.stringify({ items: [] })) });
}

afterAll(() => recordOutcome('secrets', { canary_found: 0, surfaces }));

describe('secrets through the library, with every model provider configured', () => {
  const folder = mkdtempSync(join(tmpdir(), 'engram-secrets-'));
  const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
  let models: OpenAiCompatibleServer;
  let engram: Engram;

  beforeAll(async () => {
    models = await provider();
    const llm = { provider: 'openai-compatible' as const, baseUrl: models.baseUrl, model: 'test-model' };
    engram = await createEngram({
      store: `sqlite:${join(folder, 'engram.db')}`,
      embeddings: { provider: 'openai-compatible', baseUrl: models.baseUrl, model: 'test-embed' },
      extraction: { llm },
      reflection: { llm },
      compaction: { eventThreshold: 5, stepFallback: 3 },
    });
    for (const turn of turns(scope)) await engram.commitTurn(turn);
    // The model reads each turn in a background job (and reflects over the run that ended).
    while ((await engram.maintenance.runJobs(100)).done > 0);
    while ((await engram.maintenance.runEmbeddings(500)).embedded > 0);
    // A model that answers nonsense makes reflection fail with a typed error; what it was sent still counts.
    await engram.reflect({ scope: { user_id: 'mira', agent_id: 'assistant', run_id: 'r1' } }).catch(() => undefined);
  }, 60_000);

  afterAll(async () => {
    await engram?.close();
    await models?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('keeps it out of packets of every purpose and their prompt text', async () => {
    for (const purpose of purposes) {
      for (const cues of [{}, { query: 'what is the vault code' }, { keywords: ['vault', 'password'] }]) {
        const packet = await engram.compose({ scope, purpose, cues, conversation_window: 20 });
        clean('packet', JSON.stringify(packet));
        clean('prompt text', renderPacket(packet, { format: 'markdown' }));
        clean('prompt text', renderPacket(packet, { format: 'xml' }));
      }
    }
  });

  it('keeps it out of searches, lists, exports, snapshots and candidates', async () => {
    const user = { user_id: 'mira', agent_id: 'assistant' };
    clean('event search', JSON.stringify(await engram.events.search({ scope: user, query: `vault code ${CANARY}` })));
    // Memory search embeds its query: a query naming the canary would send the caller's own words.
    clean('memory search', JSON.stringify(await engram.items.search({ scope: user, query: 'vault password code' })));
    const events = await engram.events.list({ scope: user, limit: 1000 });
    clean('event list', JSON.stringify(events));
    // A secret event shows where it sits and when, nothing that may describe it.
    const secret = events.filter((event) => event.sensitivity === 'secret');
    expect(secret).toHaveLength(2);
    for (const event of secret) {
      expect(event).toMatchObject({
        content: '[secret content withheld]',
        speaker: null,
        tags: [],
        origin_metadata: {},
        snapshot_ref: null,
        resonance_links: [],
      });
      clean('event get', JSON.stringify(await engram.events.get(event.id)));
    }
    clean(
      'item list',
      JSON.stringify(
        await engram.items.list({ scope: user, status: ['active', 'superseded', 'retracted'], limit: 1000 }),
      ),
    );
    let exported = '';
    for await (const line of engram.maintenance.exportData()) exported += line;
    clean('export', exported);
    const snapshots = await engram.runs.snapshots({ scope: { user_id: 'mira' } });
    expect(snapshots.length).toBeGreaterThan(0);
    for (const record of snapshots) {
      clean('snapshot', JSON.stringify(record));
      clean('snapshot narrative', await engram.runs.narrative(record.snapshot.snapshot_id));
    }
    clean('review candidates', JSON.stringify(await engram.review.list({ scope: { user_id: 'mira' }, limit: 1000 })));
    clean('working state', JSON.stringify(await engram.sessions.workingState(scope)));
  });

  it('never sends it to a model provider, embedding or LLM', () => {
    const paths = new Set(models.requests.map((request) => request.path));
    expect(paths.has('/v1/embeddings'), [...paths].join(', ')).toBe(true);
    expect(paths.has('/v1/chat/completions'), [...paths].join(', ')).toBe(true);
    for (const request of models.requests) {
      clean(`provider request ${request.path}`, JSON.stringify(request.body));
    }
  });
});

describe('secrets through a running engram serve: HTTP, MCP and its logs', () => {
  const folder = mkdtempSync(join(tmpdir(), 'engram-secrets-serve-'));
  const scope = { user_id: 'ana', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
  let models: OpenAiCompatibleServer;
  let server: EngramProcess;
  let base: string;
  let key: string;
  const wire: string[] = [];

  async function call(method: string, path: string, body?: unknown): Promise<string> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    expect(response.status, `${method} ${path}: ${text.slice(0, 300)}`).toBeLessThan(300);
    wire.push(text);
    return text;
  }

  beforeAll(async () => {
    models = await provider();
    // Debug logs (the most the server ever writes about requests), extraction and reflection by the loopback model.
    const settings = {
      ENGRAM_LOG_LEVEL: 'debug',
      ENGRAM_LLM_BASE_URL: models.baseUrl,
      ENGRAM_LLM_MODEL: 'test-model',
      ENGRAM_EXTRACTION: 'rules+llm',
    };
    server = startEngram(['--store', `sqlite:${join(folder, 'engram.db')}`, 'serve', '--port', '0'], settings);
    const [, address, secret] = await server.waitFor(/log in: (http:\S+)\/ui\/#key=(\S+)\)/);
    base = address!;
    key = secret!;
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await models?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('answers no HTTP request with it', async () => {
    // The requests themselves carry the canary: committing it is the one place it may travel.
    await call('POST', '/v1/turns', { turns: turns(scope) });
    for (const purpose of purposes) {
      for (const render of ['markdown', 'xml']) {
        clean(
          'HTTP compose',
          await call('POST', `/v1/compose?render=${render}`, {
            scope,
            purpose,
            cues: { query: 'vault code' },
            conversation_window: 20,
          }),
        );
      }
    }
    const events = await call('GET', '/v1/events?user_id=ana&limit=1000');
    clean('HTTP event list', events);
    for (const event of (JSON.parse(events) as { items: Array<{ id: string }> }).items)
      clean('HTTP event get', await call('GET', `/v1/events/${event.id}`));
    clean(
      'HTTP event search',
      await call('POST', '/v1/events/search', { scope: { user_id: 'ana' }, query: 'vault code' }),
    );
    clean(
      'HTTP memory search',
      await call('POST', '/v1/memory/search', {
        scope: { user_id: 'ana', agent_id: 'assistant' },
        query: 'vault password',
      }),
    );
    clean(
      'HTTP items',
      await call('GET', '/v1/items?user_id=ana&agent_id=assistant&status=active,superseded,retracted'),
    );
    clean('HTTP export', await call('GET', '/v1/export'));
    clean('HTTP snapshots', await call('GET', '/v1/snapshots?user_id=ana'));
    clean('HTTP builds', await call('GET', '/v1/builds?user_id=ana'));
    clean('HTTP scopes', await call('GET', '/v1/scopes'));
    // Reflection over the run asks the loopback model (its nonsense answer is refused with a typed error).
    const reflected = await fetch(`${base}/v1/reflections`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scope: { user_id: 'ana', agent_id: 'assistant', run_id: 'r1' } }),
    });
    clean('HTTP reflection', await reflected.text());
    expect(models.requests.some((request) => request.path === '/v1/chat/completions')).toBe(true);
    for (const request of models.requests) clean(`provider request ${request.path}`, JSON.stringify(request.body));
  });

  it('answers no MCP tool call with it', async () => {
    const client = new Client({ name: 'engram-secrets', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    try {
      const calls: Array<[string, Record<string, unknown>]> = [
        ...purposes.map((purpose): [string, Record<string, unknown>] => [
          'compose_context',
          { scope, purpose, render: 'markdown' },
        ]),
        ['search_memory', { scope: { user_id: 'ana', agent_id: 'assistant' }, query: 'vault code password' }],
        ['get_working_state', { scope }],
        ['list_candidates', { scope: { user_id: 'ana' } }],
      ];
      for (const [name, args] of calls) {
        const result = await client.callTool({ name, arguments: args });
        expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).not.toBe(true);
        clean(`MCP ${name}`, JSON.stringify(result));
      }
    } finally {
      await client.close();
    }
  });

  it('writes no log line with it, even at debug level', async () => {
    await server.stop();
    // The server did log (Fastify's line for every request; the level was debug).
    expect(server.stdout()).toContain('request completed');
    clean('server log', server.stdout());
    clean('server log', server.stderr());
  });
});
