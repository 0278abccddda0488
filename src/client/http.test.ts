import { describe, expect, expectTypeOf, it } from 'vitest';

import type { ComposeRequest, EventRecord, RememberRequest } from '../index.js';

import { ALL_ROUTES } from '../server/server.js';
import {
  callRoute,
  EngramHttpError,
  type ClientOptions,
  type OperationId,
  type RouteInput,
  type RouteResponse,
} from './http.js';
import { ROUTES } from './routes.js';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A fetch that records what it is sent and answers with the given response. */
function recording(answer: () => Response): { options: ClientOptions; sent: Sent[] } {
  const sent: Sent[] = [];
  const fake = async (url: string | URL | Request, init?: RequestInit) => {
    sent.push({
      url: String(url),
      method: init?.method ?? 'GET',
      headers: init?.headers as Record<string, string>,
      body: init?.body as string | undefined,
    });
    return answer();
  };
  return { options: { baseUrl: 'http://engram.test/', apiKey: 'egk_test', fetch: fake as typeof fetch }, sent };
}

const json = (value: unknown, status = 200, type = 'application/json; charset=utf-8') =>
  new Response(JSON.stringify(value), { status, headers: { 'content-type': type } });

/** The routes whose answer is unknown, or whose body takes any property (an index signature). */
type Loose<Op extends OperationId> =
  unknown extends RouteResponse<Op>
    ? Op
    : RouteInput<Op> extends { body?: infer Body }
      ? string extends keyof NonNullable<Body>
        ? Op
        : never
      : never;

describe('the client route table', () => {
  it('types every body and answer with the library types', () => {
    expectTypeOf<{ [Op in OperationId]: Loose<Op> }[OperationId]>().toEqualTypeOf<never>();
    expectTypeOf<RouteInput<'remember'>['body']>().toEqualTypeOf<RememberRequest>();
    expectTypeOf<RouteInput<'compose'>['body']>().toEqualTypeOf<ComposeRequest>();
    expectTypeOf<RouteResponse<'getEvent'>>().toEqualTypeOf<EventRecord>();
  });

  it('names, for each answer that is one record (or a page of them), the type of the schema the OpenAPI document gives', () => {
    const pascal = (name: string) =>
      name.replace(/(^|_)(\w)/g, (_match, _sep: string, letter: string) => letter.toUpperCase());
    const recordOf = (schema: Record<string, unknown> | undefined): string | undefined => {
      const target =
        typeof schema?.['$ref'] === 'string'
          ? /^#\/components\/schemas\/(?:records\/\$defs\/)?(\w+)$/.exec(schema['$ref'])
          : null;
      return target === null ? undefined : pascal(target[1]!);
    };
    const checked = ALL_ROUTES.flatMap((spec) => {
      const schema = spec.response.schema as
        { properties?: { items?: { items?: Record<string, unknown> }; next_cursor?: unknown } } | undefined;
      const record = recordOf(schema as Record<string, unknown>);
      const listed =
        schema?.properties?.next_cursor === undefined ? undefined : recordOf(schema.properties.items?.items);
      const expected = record ?? (listed === undefined ? undefined : `Page<${listed}>`);
      return expected === undefined ? [] : [[spec.operationId, spec.wire.response, expected]];
    });
    expect(checked.length).toBeGreaterThanOrEqual(24);
    for (const [operationId, named, expected] of checked) expect(named, operationId).toBe(expected);
  });

  it('is the server route table: every route, its method and path', () => {
    expect(Object.entries(ROUTES).map(([id, route]) => `${id} ${route.method} ${route.path}`)).toEqual(
      ALL_ROUTES.map((spec) => `${spec.operationId} ${spec.method} ${spec.url}`),
    );
  });
});

describe('callRoute', () => {
  it('fills path parameters, joins list queries and sends the key and a JSON body', async () => {
    const { options, sent } = recording(() => json({ items: [], next_cursor: null }));
    await callRoute(options, 'listEvents', { query: { user_id: 'mira', kinds: ['message', 'marker'], limit: 5 } });
    await callRoute(options, 'rejectCandidate', { params: { id: 'cand/1' }, body: { reason: 'no' } });
    expect(sent[0]).toMatchObject({
      url: 'http://engram.test/v1/events?user_id=mira&kinds=message%2Cmarker&limit=5',
      method: 'GET',
      body: undefined,
    });
    expect(sent[0]!.headers['authorization']).toBe('Bearer egk_test');
    expect(sent[1]).toMatchObject({
      url: 'http://engram.test/v1/review/cand%2F1/reject',
      method: 'POST',
      body: '{"reason":"no"}',
    });
    expect(sent[1]!.headers['content-type']).toBe('application/json');
  });

  it('sends an import as JSON Lines and reads an export as text', async () => {
    const lines = '{"kind":"header"}\n';
    const { options, sent } = recording(
      () => new Response(lines, { headers: { 'content-type': 'application/x-ndjson' } }),
    );
    expect(await callRoute(options, 'exportData', {})).toBe(lines);
    await callRoute(options, 'importData', { body: lines });
    expect(sent[1]).toMatchObject({ method: 'POST', body: lines });
    expect(sent[1]!.headers['content-type']).toBe('application/x-ndjson');
  });

  it('answers null for 204 and throws a problem document as EngramHttpError', async () => {
    expect(
      await callRoute(recording(() => new Response(null, { status: 204 })).options, 'revokeKey', {
        params: { id: 'key_1' },
      }),
    ).toBeNull();
    const problem = {
      code: 'VALIDATION_FAILED',
      detail: 'scope.user_id is required',
      field: 'scope.user_id',
      issues: [{ field: 'scope.user_id', rule: 'required', message: 'is required' }],
    };
    const { options } = recording(() => json(problem, 400, 'application/problem+json'));
    const error = await callRoute(options, 'compose', {
      body: { scope: { user_id: '', agent_id: 'a', session_id: 's', run_id: 'r' }, purpose: 'responder' },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EngramHttpError);
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      field: 'scope.user_id',
      issues: problem.issues,
    });
  });
});
