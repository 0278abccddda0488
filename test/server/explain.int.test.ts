// "Why is X (not) in this packet?" over real loopback HTTP and through engram/client: a passage the
// packet placed, a secret one the build filtered, the same build asked for by another tenant, and
// the response as the OpenAPI document describes it.

import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { BuildExplanation, CommitTurnResult, MemoryPacket } from '../../src/index.js';
import { createClient, EngramHttpError } from '../../src/client/index.js';
import { startHarness, type Harness } from './harness.js';

const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };

describe('POST /v1/builds/:id/explain', () => {
  let h: Harness;
  let build: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    h = await startHarness();
    const write = h.keys.a.write;
    const say = async (turn: string, content: string, extra: { sensitivity?: 'secret'; session_id?: string } = {}) => {
      const message = {
        role: 'user',
        content,
        ...(extra.sensitivity === undefined ? {} : { sensitivity: extra.sensitivity }),
      };
      const body = {
        scope: { ...scope, session_id: extra.session_id ?? scope.session_id },
        turn_id: turn,
        messages: [message],
      };
      return (await h.call<CommitTurnResult>('POST', '/v1/turns', { key: write, body })).body.events[0]!.event_id;
    };
    ids['launch'] = await say('t1', 'We launch Atlas in Lisbon on June 12.');
    ids['secret'] = await say('t2', 'The Atlas launch vault code is 9931.', { sensitivity: 'secret' });
    // Another session: not a turn next to a match, not in this session's summary.
    ids['garden'] = await say('t3', 'The tomatoes in the garden are ripe.', { session_id: 's2' });
    const composed = await h.call<{ packet: MemoryPacket }>('POST', '/v1/compose', {
      key: h.keys.a.read,
      body: { scope, purpose: 'responder', cues: { query: 'Atlas launch' } },
    });
    build = composed.body.packet.explain.determinism!['context_build_id'] as string;
  });
  afterAll(() => h.close());

  it('answers for a placed passage, a secret one and an unmatched one, as the document describes', async () => {
    const explain = (id: string) =>
      h.call<BuildExplanation>('POST', `/v1/builds/${build}/explain`, { key: h.keys.a.read, body: { id } });
    const launch = await explain(ids['launch']!);
    expect(launch.status).toBe(200);
    expect(launch.body).toMatchObject({
      build_id: build,
      id: ids['launch'],
      in_packet: true,
      section: 'key_quotes',
      verdict: 'selected',
      signals: { words: { used: true, rank: 1 }, meaning: { used: false, rank: null } },
    });
    const secret = await explain(ids['secret']!);
    expect(secret.body).toMatchObject({ in_packet: false, verdict: 'filtered', filter: 'sensitivity' });
    // Nothing of the secret's text comes back.
    expect(secret.text).not.toContain('vault code');
    expect((await explain(ids['garden']!)).body).toMatchObject({ verdict: 'not_matched' });

    const document = (await h.call<Record<string, unknown>>('GET', '/openapi.json')).body;
    const ajv = new Ajv2020({ strict: false, validateSchema: false, allowUnionTypes: true });
    ajvFormats.default(ajv);
    ajv.addSchema({ ...document, $id: 'urn:test:openapi' });
    const validate = ajv.compile({
      $ref: 'urn:test:openapi#/paths/~1v1~1builds~1{id}~1explain/post/responses/200/content/application~1json/schema',
    });
    for (const body of [launch.body, secret.body]) expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  });

  it('is the client’s builds.explain, and another tenant’s key finds no such build', async () => {
    const client = createClient({ baseUrl: h.url, apiKey: h.keys.a.read });
    expect(await client.builds.explain(build, ids['launch']!)).toMatchObject({ verdict: 'selected' });
    const other = createClient({ baseUrl: h.url, apiKey: h.keys.b.read });
    const refused = await other.builds.explain(build, ids['launch']!).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EngramHttpError);
    expect(refused).toMatchObject({ status: 404, code: 'NOT_FOUND', field: 'build_id' });
    const malformed = await h.call('POST', `/v1/builds/${build}/explain`, {
      key: h.keys.a.read,
      body: { id: 'ctx_01J0000000000000000000000A' },
    });
    expect(malformed.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', field: 'id' });
  });
});
