// Maintenance over HTTP (engram.maintenance, admin keys): export a tenant or one user as a JSON
// Lines stream, import an export into the key's tenant (the body is read as a stream, line by line,
// a batch per transaction, for as long as it makes progress), and erase a user or one session with
// everything derived from it. The other maintenance calls (purging, compaction, indexes,
// embeddings, jobs) have no route.

import type { Socket } from 'node:net';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance } from 'fastify';

import { ValidationError, type TransferCounts } from '../index.js';
import { HttpError } from './http-error.js';
import { type RouteCall, type RouteSpec } from './route-kit.js';
import { pick } from './route-query.js';
import { objectOf } from './schema-refs.js';
import { assertOwnTenant, isObject } from './tenancy.js';

/** Largest import body (a stream, so the JSON body limit does not apply): 1 GiB. */
export const IMPORT_LIMIT = 1024 * 1024 * 1024;

/**
 * Accepts `application/x-ndjson` bodies as the raw stream on the import route, to read line by
 * line; every other route takes one JSON document, so there it is 415 UNSUPPORTED_MEDIA_TYPE.
 */
export function acceptNdjson(app: FastifyInstance): void {
  const streaming = new Set(
    maintenanceRoutes.filter((spec) => spec.operationId === 'importData').map((spec) => `${spec.method} ${spec.url}`),
  );
  app.addContentTypeParser(['application/x-ndjson', 'application/jsonl'], (request, payload, done) => {
    if (streaming.has(`${request.method} ${request.routeOptions.url ?? ''}`)) done(null, payload);
    else
      done(
        new HttpError(
          'UNSUPPORTED_MEDIA_TYPE',
          `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]} takes application/json; only POST /v1/import takes application/x-ndjson`,
        ),
        undefined,
      );
  });
}

/** The body's bytes, counted against the limit; each chunk is progress. */
function counted(limit: number, progress: () => void): Transform {
  let read = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      read += chunk.length;
      progress();
      if (read > limit) done(new HttpError('PAYLOAD_TOO_LARGE', `an import may be at most ${limit} bytes`));
      else done(null, chunk);
    },
  });
}

async function exportStream({ engram, tenant, query }: RouteCall): Promise<Readable> {
  const user = pick(query, ['user_id'])['user_id'];
  const lines = engram.maintenance.exportData({
    tenant_id: tenant,
    ...(typeof user === 'string' ? { user_id: user } : {}),
  });
  // The first line is read before answering, so a bad scope is a problem document, not a broken stream.
  const first = await lines.next();
  return Readable.from(
    (async function* () {
      if (first.done !== true) yield `${first.value}\n`;
      for await (const line of lines) yield `${line}\n`;
    })(),
  );
}

async function importStream({ engram, tenant, body, progress, importMaxLineBytes }: RouteCall): Promise<unknown> {
  if (!(body instanceof Readable))
    throw new HttpError('UNSUPPORTED_MEDIA_TYPE', 'an import is sent as application/x-ndjson (the lines of an export)');
  // Piped, not read directly: when the import stops early (a bad or too long line) only this
  // stream is closed, and the request's socket stays open for the answer.
  const input = body.pipe(counted(IMPORT_LIMIT, progress));
  // A connection closed under the import (the client gone, or the answer already sent after a
  // timeout) ends it: the request stream itself is not told once its answer has gone.
  const socket = (body as Readable & { socket?: Socket }).socket;
  const cutOff = () =>
    input.destroy(new HttpError('BAD_REQUEST', 'the connection closed before the import was read whole'));
  socket?.once('close', cutOff);
  try {
    const skipped: TransferCounts = {};
    const counts = await engram.maintenance.importData(input, {
      tenant_id: tenant,
      maxLineBytes: importMaxLineBytes,
      onBatch: progress,
      onSkip: (kind) => (skipped[kind] = (skipped[kind] ?? 0) + 1),
    });
    return { tenant_id: tenant, counts, skipped };
  } finally {
    socket?.off('close', cutOff);
  }
}

async function eraseScope({ engram, tenant, body }: RouteCall): Promise<unknown> {
  if (!isObject(body)) throw ValidationError.of('', 'type', 'the body must be a JSON object { user_id, session_id? }');
  assertOwnTenant(body['tenant_id'], tenant, 'tenant_id');
  const unknown = Object.keys(body).filter((key) => !['user_id', 'session_id', 'tenant_id'].includes(key));
  if (unknown.length > 0)
    throw ValidationError.of(unknown[0]!, 'additionalProperties', 'is not a field of an erase request');
  if (typeof body['user_id'] !== 'string') throw ValidationError.of('user_id', 'required', 'names the user to erase');
  const session = body['session_id'];
  if (session !== undefined && typeof session !== 'string')
    throw ValidationError.of('session_id', 'type', 'must be a string');
  return {
    erased: await engram.maintenance.erase({
      tenant_id: tenant,
      user_id: body['user_id'],
      ...(session === undefined ? {} : { session_id: session }),
    }),
  };
}

const COUNTS = { type: 'object', additionalProperties: { type: 'integer' } };

export const maintenanceRoutes: readonly RouteSpec[] = [
  {
    method: 'GET',
    url: '/v1/export',
    operationId: 'exportData',
    wire: { response: 'string' },
    role: 'admin',
    tag: 'transfer',
    summary: "The key's tenant (or one user) as JSON Lines: a header, then every record; secret content withheld.",
    query: [{ name: 'user_id', type: 'string', description: 'Only this user.' }],
    response: {
      status: 200,
      description: 'The export, one JSON object per line.',
      contentType: 'application/x-ndjson',
      schema: { type: 'string' },
    },
    handle: exportStream,
  },
  {
    method: 'POST',
    url: '/v1/import',
    operationId: 'importData',
    wire: { body: 'string', response: 'ImportResult' },
    role: 'admin',
    tag: 'transfer',
    summary:
      "An export (application/x-ndjson, up to 1 GiB, lines up to the server's importMaxLineBytes, 16 MiB by default) into the key's tenant, a batch per transaction with each turn beside its events; records are rewritten to the tenant. " +
      'Sent again (after an interruption), records already there are skipped; one held with other content is 409 RECORD_CONFLICT. Runs while bytes arrive or batches commit.',
    body: {
      schema: { type: 'string', description: 'The lines of an export.' },
      required: true,
      contentType: 'application/x-ndjson',
    },
    response: {
      status: 200,
      description: 'The records written, and those skipped because the tenant held them already, by kind.',
      schema: objectOf({ tenant_id: { type: 'string' }, counts: COUNTS, skipped: COUNTS }, [
        'tenant_id',
        'counts',
        'skipped',
      ]),
    },
    errors: [409, 413, 415],
    deadline: 'progress',
    handle: importStream,
  },
  {
    method: 'POST',
    url: '/v1/erase',
    operationId: 'erase',
    wire: { body: 'EraseRequest', response: 'EraseResult' },
    role: 'admin',
    tag: 'transfer',
    summary:
      "Erase a user, or one session of theirs, with everything derived from it (one transaction); other users' and sessions' builds that quoted it are redacted.",
    body: {
      schema: objectOf({ user_id: { type: 'string' }, session_id: { type: 'string' } }, ['user_id']),
      required: true,
    },
    response: {
      status: 200,
      description:
        'What was removed, by table, with the builds redacted (context_builds_redacted) and items whose sources were trimmed (memory_items_sources_trimmed).',
      schema: objectOf({ erased: COUNTS }, ['erased']),
    },
    handle: eraseScope,
  },
];
