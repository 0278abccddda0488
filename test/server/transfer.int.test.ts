// Export, import and erase over real loopback HTTP: an export of tenant A streamed as JSON Lines
// (secret content withheld), imported into tenant B through B's admin key (every record rewritten to
// B, derived search rebuilt), erase of a user and of a session, roles and tenancy, bad input.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { CommitTurnResult, MemoryPacket } from '../../src/index.js';
import { startHarness, TENANT_A, TENANT_B, type Harness } from './harness.js';

const scope = { user_id: 'tara', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
const CANARY = 'canary-export-9f2';

describe('export, import and erase over HTTP', () => {
  let h: Harness;
  let exported = '';
  beforeAll(async () => {
    h = await startHarness();
    const write = h.keys.a.write;
    await h.call<CommitTurnResult>('POST', '/v1/turns', {
      key: write,
      body: {
        scope,
        turn_id: 't1',
        messages: [
          { role: 'user', content: 'I prefer concise answers in writing. We launch Atlas on June 12.' },
          { role: 'user', content: `token ${CANARY}`, sensitivity: 'secret' },
        ],
      },
    });
    await h.call('POST', '/v1/turns', {
      key: write,
      body: {
        scope: { ...scope, session_id: 's2' },
        turn_id: 't2',
        messages: [{ role: 'user', content: 'The venue is Lisbon.' }],
      },
    });
    await h.call('POST', '/v1/compose', { key: write, body: { scope, purpose: 'responder' } });
  });
  afterAll(() => h.close());

  it('streams the tenant as JSON Lines with a header, secret content withheld; only admin keys may', async () => {
    const response = await h.call('GET', '/v1/export', { key: h.keys.a.admin });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    exported = response.text;
    const lines = exported
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string; event?: { content: unknown } });
    expect(lines[0]).toMatchObject({ kind: 'header', format: 'engram-export', version: 1, tenant_id: TENANT_A });
    expect(new Set(lines.map((line) => line.kind))).toEqual(
      new Set(['header', 'event', 'turn', 'summary', 'item', 'context_build']),
    );
    expect(exported).not.toContain(CANARY);
    expect(exported).toContain('[secret content withheld]');
    expect((await h.call('GET', '/v1/export', { key: h.keys.a.write })).body).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });
    expect((await h.call('GET', `/v1/export?tenant_id=${TENANT_B}`, { key: h.keys.a.admin })).body).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });
  });

  it("imports an export into the key's own tenant, where search and compose find it", async () => {
    const imported = await h.call<{ tenant_id: string; counts: Record<string, number> }>('POST', '/v1/import', {
      key: h.keys.b.admin,
      raw: exported,
      contentType: 'application/x-ndjson',
    });
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({
      tenant_id: TENANT_B,
      counts: { event: expect.any(Number), item: expect.any(Number) },
    });
    const hits = await h.call<{ hits: Array<{ item: { tenant_id: string; key: string } }> }>(
      'POST',
      '/v1/memory/search',
      { key: h.keys.b.read, body: { scope: { user_id: 'tara', agent_id: 'assistant' }, query: 'concise writing' } },
    );
    expect(hits.body.hits[0]!.item).toMatchObject({ tenant_id: TENANT_B, key: 'pref:writing:length' });
    const packet = await h.call<{ packet: MemoryPacket }>('POST', '/v1/compose', {
      key: h.keys.b.read,
      body: { scope, purpose: 'responder', cues: { query: 'venue' } },
    });
    expect(JSON.stringify(packet.body.packet)).toContain('Lisbon');
    // The same file again (an import sent twice, or resumed): every record is there already, so
    // nothing is written and each is counted as skipped.
    const again = await h.call<{ counts: Record<string, number>; skipped: Record<string, number> }>(
      'POST',
      '/v1/import',
      { key: h.keys.b.admin, raw: exported, contentType: 'application/x-ndjson' },
    );
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ tenant_id: TENANT_B, counts: {}, skipped: imported.body.counts });
  });

  it('answers a record the tenant holds with other content with 409 RECORD_CONFLICT naming the line and the id, never a retryable 503', async () => {
    const lines = exported.trim().split('\n');
    const at = lines.findIndex((line) => line.includes('Lisbon'));
    const record = JSON.parse(lines[at]!) as { event: { id: string; content: string } };
    lines[at] = JSON.stringify({ ...record, event: { ...record.event, content: 'The venue is Porto.' } });
    const conflict = await h.call('POST', '/v1/import', {
      key: h.keys.b.admin,
      raw: `${lines.join('\n')}\n`,
      contentType: 'application/x-ndjson',
    });
    expect(conflict.body).toMatchObject({ status: 409, code: 'RECORD_CONFLICT', field: `line ${at + 1}.event.id` });
    expect(conflict.body['detail']).toContain(record.event.id);
    const events = await h.call<{ items: Array<{ content: string }> }>('GET', '/v1/events?user_id=tara&session_id=s2', {
      key: h.keys.b.read,
    });
    expect(events.body.items.map((event) => event.content)).toEqual(['The venue is Lisbon.']);
  });

  it('refuses a file that is not an export, naming the line', async () => {
    const notJson = await h.call('POST', '/v1/import', {
      key: h.keys.b.admin,
      raw: '{"kind":"header","format":"engram-export","version":1}\nnot json\n',
      contentType: 'application/x-ndjson',
    });
    expect(notJson.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', field: 'line 2' });
    const noHeader = await h.call('POST', '/v1/import', {
      key: h.keys.b.admin,
      raw: '{"kind":"event"}\n',
      contentType: 'application/x-ndjson',
    });
    expect(noHeader.body).toMatchObject({ status: 400, field: 'line 1' });
    const asJson = await h.call('POST', '/v1/import', { key: h.keys.b.admin, body: { lines: [] } });
    expect(asJson.body).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    // A turn whose stored result is empty would answer a replay of that turn with nothing: refused by line.
    const header = exported.split('\n')[0]!;
    const turn = {
      kind: 'turn',
      key: { tenant_id: TENANT_B, user_id: 'tara', agent_id: 'assistant', session_id: 's1' },
      turn_id: 'tx',
      result: {},
    };
    const emptyResult = await h.call('POST', '/v1/import', {
      key: h.keys.b.admin,
      raw: `${header}\n${JSON.stringify(turn)}\n`,
      contentType: 'application/x-ndjson',
    });
    expect(emptyResult.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', field: 'line 2.result.turn_id' });
    // A summary sentence's speaker, which lines show as a label, is a string or absent.
    const summary = JSON.parse(exported.split('\n').find((line) => line.includes('"kind":"summary"'))!) as {
      summary: { sentences: Array<Record<string, unknown>> };
    };
    summary.summary.sentences[0]!['speaker'] = 42;
    const badSpeaker = await h.call('POST', '/v1/import', {
      key: h.keys.b.admin,
      raw: `${header}\n${JSON.stringify(summary)}\n`,
      contentType: 'application/x-ndjson',
    });
    expect(badSpeaker.body).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      field: 'line 2.summary.sentences',
    });
  });

  it('erases a session, then a user, of the key’s tenant only', async () => {
    const session = await h.call<{ erased: Record<string, number> }>('POST', '/v1/erase', {
      key: h.keys.b.admin,
      body: { user_id: 'tara', session_id: 's2' },
    });
    expect(session.body.erased['events']).toBe(1);
    const user = await h.call<{ erased: Record<string, number> }>('POST', '/v1/erase', {
      key: h.keys.b.admin,
      body: { user_id: 'tara' },
    });
    expect(user.body.erased['events']).toBeGreaterThan(0);
    const left = await h.call<{ items: unknown[] }>('GET', '/v1/events?user_id=tara', { key: h.keys.b.read });
    expect(left.body.items).toEqual([]);
    const stillInA = await h.call<{ items: unknown[] }>('GET', '/v1/events?user_id=tara', { key: h.keys.a.read });
    expect(stillInA.body.items.length).toBeGreaterThan(0);
    expect((await h.call('POST', '/v1/erase', { key: h.keys.b.write, body: { user_id: 'tara' } })).body).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(
      (await h.call('POST', '/v1/erase', { key: h.keys.b.admin, body: { user_id: 'tara', tenant_id: TENANT_A } })).body,
    ).toMatchObject({ status: 403, field: 'tenant_id' });
    expect((await h.call('POST', '/v1/erase', { key: h.keys.b.admin, body: { user: 'tara' } })).body).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      field: 'user',
    });
  });
});
