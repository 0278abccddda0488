// A real server over a real Engram (temporary SQLite file) on a loopback port, keys for two
// tenants in every role, and a small fetch helper that returns status, headers and parsed body.

import type { FastifyInstance } from 'fastify';

import type { KeyRole } from '../../src/index.js';
import { createServer, listen, type ServerOptions } from '../../src/server/index.js';
import { tempEngram, type TempEngram } from '../helpers/temp-engram.js';

export const TENANT_A = 'tenant-a';
export const TENANT_B = 'tenant-b';

export type KeySet = Record<KeyRole, string>;

/** A response: `body` is the parsed JSON, typed as the caller expects it (undefined when not JSON). */
export interface Response<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

/** A page of a list route. */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  /** Sent as is (for invalid JSON and other media types). */
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface Harness {
  t: TempEngram;
  app: FastifyInstance;
  url: string;
  keys: { a: KeySet; b: KeySet };
  call<T = Record<string, unknown>>(method: string, path: string, options?: CallOptions): Promise<Response<T>>;
  close(): Promise<void>;
}

async function keysOf(t: TempEngram, tenant: string): Promise<KeySet> {
  const make = async (role: KeyRole) =>
    (await t.engram.keys.create({ tenant_id: tenant, role, label: `${tenant} ${role}` })).key;
  return { read: await make('read'), write: await make('write'), admin: await make('admin') };
}

/**
 * Starts a server on 127.0.0.1 (a free port) over a fresh Engram.
 *
 * @example
 * const h = await startHarness();
 * const { status } = await h.call('GET', '/healthz');
 */
export async function startHarness(options: Partial<ServerOptions> = {}): Promise<Harness> {
  const t = await tempEngram('2026-06-01T12:00:00.000Z', {
    embeddings: { provider: 'none' },
    compaction: { eventThreshold: 5, stepFallback: 3 },
  });
  const app = await createServer(t.engram, { auth: 'keys', host: '127.0.0.1', logger: false, ...options });
  const url = await listen(app, { port: 0 });
  const keys = { a: await keysOf(t, TENANT_A), b: await keysOf(t, TENANT_B) };
  const call = async <T>(method: string, path: string, options: CallOptions = {}): Promise<Response<T>> => {
    // Time moves on between requests, as it does for a real client (replays read by recorded time).
    t.clock.advance(1000);
    const headers: Record<string, string> = { ...options.headers };
    if (options.key !== null && options.key !== undefined) headers['authorization'] = `Bearer ${options.key}`;
    let payload: string | undefined;
    if (options.raw !== undefined) payload = options.raw;
    else if (options.body !== undefined) payload = JSON.stringify(options.body);
    if (payload !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      ...(payload === undefined ? {} : { body: payload }),
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, headers: response.headers, text, body: body as T };
  };
  return {
    t,
    app,
    url,
    keys,
    call,
    close: async () => {
      await app.close();
      await t.cleanup();
    },
  };
}
