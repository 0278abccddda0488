// Bad input on every route, over real loopback HTTP: unknown fields and query parameters, wrong
// types, a missing scope, malformed and unknown ids, an oversize body, invalid JSON and a wrong
// content type — each answered with a problem document naming the status, code and field.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { API_ROUTES } from '../../src/server/index.js';
import type { ProblemDocument } from '../../src/server/index.js';
import { startHarness, type Harness, type Response } from './harness.js';
import { samples, UNKNOWN_IDS } from './requests.js';

const SAMPLES = samples('mira', UNKNOWN_IDS);
const bodyRoutes = API_ROUTES.filter((spec) => spec.body !== undefined);
const idRoutes = API_ROUTES.filter((spec) => spec.url.includes(':id'));
const queryRoutes = API_ROUTES.filter((spec) => spec.method === 'GET' && spec.query !== undefined);

/** The record-id field each route with an :id names in its errors. */
const ID_FIELD: Record<string, string> = {
  getEvent: 'event_id',
  getItem: 'item_id',
  getCandidate: 'candidate_id',
  approveCandidate: 'candidate_id',
  rejectCandidate: 'candidate_id',
  getInsight: 'insight_id',
  updateInsight: 'insight_id',
  promoteInsight: 'insight_id',
  getSnapshot: 'snapshot_id',
  getSnapshotNarrative: 'snapshot_id',
  getBuild: 'build_id',
  replayBuild: 'build_id',
  explainBuild: 'build_id',
  revokeKey: 'key_id',
};

/** A field of the wrong type, for bodies without a scope. */
const WRONG_TYPE: Record<string, [string, unknown]> = {
  approveCandidate: ['by', 5],
  rejectCandidate: ['reason', 5],
  updateInsight: ['state', 5],
  promoteInsight: ['value', 'text'],
  createKey: ['label', 5],
  patchWorkingState: ['expected_version', 'zero'],
  explainBuild: ['id', 5],
  reextract: ['user_id', 5],
};

/** Routes whose query must name the user. */
const NEEDS_USER = [
  'listEvents',
  'listItems',
  'itemHistory',
  'getWorkingState',
  'listCandidates',
  'listInsights',
  'getRun',
  'listSnapshots',
];

function expectProblem(response: Response<ProblemDocument>, status: number, code: string, field?: string | null): void {
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(response.body).toMatchObject({
    status,
    code,
    type: expect.stringMatching(/^urn:engram:problem:/),
    title: expect.any(String),
    detail: expect.any(String),
    request_id: expect.any(String),
  });
  expect(response.status).toBe(status);
  if (field !== undefined) expect(response.body.field).toBe(field);
  expect(response.text).not.toMatch(/\bat .+\.(ts|js):\d+/);
}

describe('bad input on every route', () => {
  let h: Harness;
  const send = (operationId: string, change: { path?: string; body?: unknown; raw?: string; contentType?: string }) => {
    const spec = API_ROUTES.find((route) => route.operationId === operationId)!;
    const sample = SAMPLES[operationId]!;
    const body = 'body' in change ? change.body : sample.body;
    return h.call<ProblemDocument>(spec.method, change.path ?? sample.path, {
      key: h.keys.a.admin,
      body,
      ...(change.raw === undefined ? {} : { raw: change.raw, contentType: change.contentType }),
    });
  };

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('every route has a sample request', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(API_ROUTES.map((spec) => spec.operationId).sort());
  });

  describe.each(bodyRoutes.map((spec) => [spec.operationId]))('%s body', (operationId) => {
    const body = SAMPLES[operationId]!.body!;

    it('an unknown field is 400 VALIDATION_FAILED naming it (additionalProperties)', async () => {
      const response = await send(operationId, { body: { ...body, zzz_unknown: 1 } });
      expectProblem(response, 400, 'VALIDATION_FAILED', 'zzz_unknown');
      expect(response.body.issues).toContainEqual(
        expect.objectContaining({ field: 'zzz_unknown', rule: 'additionalProperties' }),
      );
    });

    it('a field of the wrong type is 400 VALIDATION_FAILED naming it', async () => {
      const [field, value] = 'scope' in body ? ['scope', 5] : WRONG_TYPE[operationId]!;
      const response = await send(operationId, { body: { ...body, [field]: value } });
      expectProblem(response, 400, 'VALIDATION_FAILED', field);
    });

    it('a body that is not an object is 400 VALIDATION_FAILED', async () => {
      expectProblem(await send(operationId, { body: ['not', 'an', 'object'] }), 400, 'VALIDATION_FAILED');
    });

    it('a lone surrogate or U+0000 in a field is 400 VALIDATION_FAILED naming it (well_formed, no_nul)', async () => {
      const scoped = 'scope' in body;
      const field = scoped ? 'scope.user_id' : WRONG_TYPE[operationId]![0];
      for (const [text, rule] of [
        ['u\ud800', 'well_formed'],
        ['u\u0000', 'no_nul'],
      ]) {
        const response = await send(operationId, {
          body: scoped
            ? { ...body, scope: { ...(body['scope'] as object), user_id: text } }
            : { ...body, [field]: text },
        });
        expectProblem(response, 400, 'VALIDATION_FAILED', field);
        expect(response.body.issues).toContainEqual(expect.objectContaining({ field, rule }));
      }
    });

    it('an oversize body is 413 PAYLOAD_TOO_LARGE', async () => {
      expectProblem(
        await send(operationId, { body: { ...body, padding: 'x'.repeat(1024 * 1024 + 1) } }),
        413,
        'PAYLOAD_TOO_LARGE',
        null,
      );
    });

    it('invalid JSON is 400 INVALID_JSON', async () => {
      expectProblem(
        await send(operationId, { raw: '{"scope": ', contentType: 'application/json' }),
        400,
        'INVALID_JSON',
        null,
      );
    });

    it('another media type is 415 UNSUPPORTED_MEDIA_TYPE, JSON Lines included', async () => {
      expectProblem(
        await send(operationId, { raw: JSON.stringify(body), contentType: 'text/plain' }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        null,
      );
      expectProblem(
        await send(operationId, { raw: `${JSON.stringify(body)}\n`, contentType: 'application/x-ndjson' }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        null,
      );
    });

    it('a `__proto__` key is 400 VALIDATION_FAILED naming it (propertyNames)', async () => {
      const response = await send(operationId, {
        raw: JSON.stringify(body).replace('{', '{"__proto__":{"polluted":true},'),
        contentType: 'application/json',
      });
      expectProblem(response, 400, 'VALIDATION_FAILED', '__proto__');
      expect(response.body.issues).toContainEqual(
        expect.objectContaining({ field: '__proto__', rule: 'propertyNames' }),
      );
    });
  });

  describe.each(idRoutes.map((spec) => [spec.operationId]))('%s id', (operationId) => {
    const path = SAMPLES[operationId]!.path;
    const id = path.split('/')[3]!;

    it('a malformed id is 400 VALIDATION_FAILED naming the id field', async () => {
      const response = await send(operationId, { path: path.replace(id, 'not-an-id') });
      expectProblem(response, 400, 'VALIDATION_FAILED', ID_FIELD[operationId]);
    });

    it('an id of the right shape that names nothing is 404 NOT_FOUND', async () => {
      expectProblem(await send(operationId, {}), 404, 'NOT_FOUND', ID_FIELD[operationId]);
    });
  });

  describe.each(queryRoutes.map((spec) => [spec.operationId]))('%s query', (operationId) => {
    const path = SAMPLES[operationId]!.path;
    const join = path.includes('?') ? '&' : '?';

    it('an unknown parameter is 400 VALIDATION_FAILED naming it', async () => {
      expectProblem(
        await send(operationId, { path: `${path}${join}zzz_unknown=1` }),
        400,
        'VALIDATION_FAILED',
        'zzz_unknown',
      );
    });
  });

  // Bodies that carry a scope: leaving it out is refused.
  describe.each(
    bodyRoutes.filter((spec) => 'scope' in SAMPLES[spec.operationId]!.body!).map((spec) => [spec.operationId]),
  )('%s scope', (operationId) => {
    it('a missing scope is 400 VALIDATION_FAILED (scope, required)', async () => {
      const { scope: _scope, ...rest } = SAMPLES[operationId]!.body!;
      const response = await send(operationId, { body: rest });
      expectProblem(response, 400, 'VALIDATION_FAILED', 'scope');
      expect(response.body.issues).toContainEqual(expect.objectContaining({ field: 'scope', rule: 'required' }));
    });
  });

  // Routes with a `limit` parameter.
  describe.each(
    queryRoutes.filter((spec) => spec.query!.some((param) => param.name === 'limit')).map((spec) => [spec.operationId]),
  )('%s limit', (operationId) => {
    it('a limit that is not a number is 400 (limit, type); out of range is 400 (limit)', async () => {
      const path = SAMPLES[operationId]!.path;
      const join = path.includes('?') ? '&' : '?';
      const wrong = await send(operationId, { path: `${path}${join}limit=many` });
      expectProblem(wrong, 400, 'VALIDATION_FAILED', 'limit');
      expect(wrong.body.issues![0]!.rule).toBe('type');
      expectProblem(await send(operationId, { path: `${path}${join}limit=0` }), 400, 'VALIDATION_FAILED', 'limit');
    });
  });

  // Routes that need a user.
  describe.each(queryRoutes.filter((spec) => NEEDS_USER.includes(spec.operationId)).map((spec) => [spec.operationId]))(
    '%s user',
    (operationId) => {
      it('a missing user is 400 VALIDATION_FAILED (user_id, required)', async () => {
        const response = await send(operationId, { path: SAMPLES[operationId]!.path.replace(/user_id=[^&]+&?/, '') });
        expectProblem(response, 400, 'VALIDATION_FAILED', 'user_id');
        expect(response.body.issues).toContainEqual(expect.objectContaining({ field: 'user_id', rule: 'required' }));
      });
    },
  );

  it('a repeated single-valued parameter and a bad enum are 400 naming the parameter', async () => {
    expectProblem(
      await send('listEvents', { path: '/v1/events?user_id=a&user_id=b' }),
      400,
      'VALIDATION_FAILED',
      'user_id',
    );
    expectProblem(await send('compose', { path: '/v1/compose?render=html' }), 400, 'VALIDATION_FAILED', 'render');
    expectProblem(
      await send('listEvents', { path: '/v1/events?user_id=mira&kinds=message,mail' }),
      400,
      'VALIDATION_FAILED',
      'kinds[1]',
    );
    expectProblem(
      await send('diffBuilds', { path: `/v1/builds/diff?a=${UNKNOWN_IDS.build}` }),
      400,
      'VALIDATION_FAILED',
      'b',
    );
  });

  it('a batch names the turn at fault, also a batch of one', async () => {
    const turn = SAMPLES['commitTurn']!.body!;
    const one = await send('commitTurn', { body: { turns: [{ ...turn, messages: 'hi' }] } });
    expectProblem(one, 400, 'VALIDATION_FAILED', 'turns[0].messages');
    const two = await send('commitTurn', { body: { turns: [turn, { ...turn, turn_id: 'second', messages: 'hi' }] } });
    expectProblem(two, 400, 'VALIDATION_FAILED', 'turns[1].messages');
    expectProblem(
      await send('commitTurn', { body: { turns: [turn], extra: true } }),
      400,
      'VALIDATION_FAILED',
      'extra',
    );
  });

  it('a path id that differs from the body is refused; an empty JSON body is INVALID_JSON', async () => {
    const response = await send('approveCandidate', { body: { candidate_id: UNKNOWN_IDS.candidate2 } });
    expectProblem(response, 400, 'VALIDATION_FAILED', 'candidate_id');
    expectProblem(await send('compose', { raw: '', contentType: 'application/json' }), 400, 'INVALID_JSON', null);
  });

  it('an unknown route is 404 ROUTE_NOT_FOUND; no key is 401; a bad key is 401', async () => {
    expectProblem(
      await h.call<ProblemDocument>('GET', '/v1/nothing-here', { key: h.keys.a.read }),
      404,
      'ROUTE_NOT_FOUND',
      null,
    );
    const none = await h.call<ProblemDocument>('GET', '/v1/events?user_id=mira');
    expectProblem(none, 401, 'UNAUTHENTICATED', 'authorization');
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expectProblem(
      await h.call<ProblemDocument>('GET', '/v1/events?user_id=mira', { key: 'egk_not-a-real-key' }),
      401,
      'UNAUTHENTICATED',
      'authorization',
    );
    expectProblem(
      await h.call<ProblemDocument>('GET', '/v1/events?user_id=mira', {
        headers: { authorization: `Basic ${h.keys.a.read}` },
      }),
      401,
      'UNAUTHENTICATED',
    );
  });
});
