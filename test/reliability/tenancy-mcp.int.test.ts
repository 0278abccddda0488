// Tenant isolation over MCP (streamable HTTP on a real server): every tool the server lists, called
// with a key of tenant A and tenant B's user and record ids, finds nothing of B and changes nothing
// of B; naming tenant B in the arguments is FORBIDDEN. A tool without a probe below fails the test,
// so a new tool joins the matrix when it is added.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ERROR_META_KEY } from '../../src/mcp/index.js';
import { startHarness, TENANT_A, TENANT_B, type Harness } from '../server/harness.js';
import type { RecordIds } from '../server/requests.js';
import { B_USER, fingerprint, seedTenantB } from '../server/tenant-b.js';
import { recordOutcome } from './results.js';

type Args = Record<string, unknown>;

/** Arguments for each tool aimed at tenant B's user and records (without naming the tenant). */
function probes(ids: RecordIds): Record<string, Args> {
  const session = { user_id: B_USER, agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
  const reader = { user_id: B_USER, agent_id: 'assistant' };
  return {
    commit_turn: { scope: session, turn_id: 'b1', messages: [{ role: 'user', content: 'probe from tenant A' }] },
    compose_context: { scope: session, purpose: 'responder', render: 'markdown', full_packet: true },
    search_memory: { scope: reader, query: 'concise answers writing' },
    remember: {
      scope: reader,
      type: 'preferences',
      key: 'pref:writing:tone',
      value: { scope: 'writing', name: 'tone', value: 'probe' },
    },
    forget: { scope: reader, key: 'pref:writing:tone' },
    get_working_state: { scope: session },
    update_working_state: { scope: session, expected_version: 0, set: { goal: 'probe' } },
    list_candidates: { scope: { user_id: B_USER } },
    review_candidate: { candidate_id: ids.candidate, decision: 'reject', reason: 'probe' },
  };
}

/** The same arguments naming tenant B where the tool takes a tenant. */
function namingTenantB(args: Args): Args {
  const scope = args['scope'];
  return typeof scope === 'object' && scope !== null
    ? { ...args, scope: { ...scope, tenant_id: TENANT_B } }
    : { ...args, tenant_id: TENANT_B };
}

describe('tenant isolation on every MCP tool', () => {
  let h: Harness;
  let ids: RecordIds;
  let before: string;
  let client: Client;
  const figures = { tools: 0, calls: 0, leaked: 0, forbidden: 0 };

  beforeAll(async () => {
    h = await startHarness();
    ids = await seedTenantB(h.t.engram);
    before = await fingerprint(h.t.engram);
    client = new Client({ name: 'engram-tenancy', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${h.keys.a.admin}` } },
      }),
    );
  });

  afterAll(async () => {
    await client?.close();
    await h?.close();
    recordOutcome('tenancy-mcp', figures);
  });

  it("a key of tenant A, given B's ids and users, finds nothing of B and changes nothing of B", async () => {
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    const byTool = probes(ids);
    expect(
      tools.filter((name) => byTool[name] === undefined),
      'tools without a probe',
    ).toEqual([]);
    const secretsOfB = [TENANT_B, ...Object.values(ids)];
    for (const name of tools) {
      const args = byTool[name]!;
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      figures.calls += 1;
      const text = JSON.stringify(result);
      const asked = JSON.stringify(args);
      // An error may echo the id the call named; nothing else of B may appear.
      for (const secret of secretsOfB.filter((value) => !asked.includes(value))) {
        if (text.includes(secret)) figures.leaked += 1;
        expect(text, `${name}: ${text.slice(0, 300)}`).not.toContain(secret);
      }
      if (name === 'review_candidate')
        expect((result._meta?.[ERROR_META_KEY] as { code?: string } | undefined)?.code, name).toBe('NOT_FOUND');
      const structured = result.structuredContent as Record<string, unknown> | undefined;
      if (name === 'compose_context')
        expect((structured?.['packet'] as { meta: { scope: { tenant_id: string } } }).meta.scope.tenant_id).toBe(
          TENANT_A,
        );
      if (name === 'list_candidates') expect(structured?.['candidates']).toEqual([]);
    }
    figures.tools = tools.length;
    expect(await fingerprint(h.t.engram)).toBe(before);
  });

  it('a call naming tenant B is FORBIDDEN on every tool', async () => {
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    const byTool = probes(ids);
    for (const name of tools) {
      const result = (await client.callTool({ name, arguments: namingTenantB(byTool[name]!) })) as CallToolResult;
      figures.calls += 1;
      expect(result.isError, name).toBe(true);
      expect(result._meta?.[ERROR_META_KEY], name).toMatchObject({ code: 'FORBIDDEN' });
      figures.forbidden += 1;
    }
    expect(await fingerprint(h.t.engram)).toBe(before);
  });
});
