// `engram serve` (the main job: the HTTP API, MCP at /mcp and the background worker on one store)
// and `engram mcp` (the MCP server over stdio, with the background worker too). On first start,
// serve creates an admin key of the default tenant and prints it once.

import type { Command } from 'commander';

import {
  createEngram,
  DEFAULT_MAX_LINE_BYTES,
  EngramError,
  redactStoreAddress,
  staleVectors,
  startBackgroundWorker,
  type BackgroundWorker,
  type Engram,
  type KeyPrincipal,
} from '../index.js';
import { runMcpStdio } from '../mcp/index.js';
import { createServer, listen } from '../server/index.js';
import { exitCodeOf, printError } from './output.js';
import { engramConfig, globals, list, positiveInteger } from './runner.js';
import { untilSignal } from './service-commands.js';

interface ServeFlags {
  host: string;
  port: number;
  auth: boolean;
  worker: boolean;
  bodyLimit?: number;
  rateLimit?: number;
  quiet?: boolean;
  inspector: boolean;
  allowedHost?: string[];
  importMaxLineBytes?: number;
  mcpTools: string;
}

/** An admin key for the default tenant when the store has no key yet (first start), else null. */
async function firstKey(engram: Engram): Promise<string | null> {
  return (await engram.keys.bootstrap())?.key ?? null;
}

async function serve(flags: ServeFlags): Promise<void> {
  // Listen for the stop signal first: a SIGTERM during start-up also ends in a clean shutdown.
  const stopped = untilSignal();
  const store = globals().store;
  let engram: Engram | undefined;
  try {
    engram = await createEngram(engramConfig());
    const app = await createServer(engram, {
      auth: flags.auth ? 'keys' : 'none',
      host: flags.host,
      logger: flags.quiet === true ? false : { level: process.env['ENGRAM_LOG_LEVEL'] ?? 'info' },
      ...(flags.bodyLimit === undefined ? {} : { bodyLimit: flags.bodyLimit }),
      ...(flags.rateLimit === undefined ? {} : { rateLimit: { max: flags.rateLimit } }),
      ...(flags.allowedHost === undefined ? {} : { allowedHosts: flags.allowedHost }),
      ...(flags.importMaxLineBytes === undefined ? {} : { importMaxLineBytes: flags.importMaxLineBytes }),
      inspector: flags.inspector,
      mcpTools: toolSurface(flags.mcpTools, '--mcp-tools'),
    });
    const key = flags.auth ? await firstKey(engram) : null;
    const stale = staleVectors(await engram.maintenance.vectorModels());
    const address = await listen(app, { host: flags.host, port: flags.port });
    const worker = flags.worker
      ? startBackgroundWorker(engram, {
          onError: (error, task) => app.log.warn({ task, err: error }, 'worker tick failed'),
        })
      : null;
    const banner = [
      `Engram is serving ${redactStoreAddress(store)}`,
      `  API       ${address}/v1   (OpenAPI: ${address}/openapi.json)`,
      `  docs      ${address}/docs`,
      flags.inspector
        ? `  inspector ${address}/ui/${key === null ? '' : `   (log in: ${address}/ui/#key=${key})`}`
        : '',
      `  MCP       ${address}/mcp   (streamable HTTP)`,
      `  health    ${address}/healthz, metrics ${address}/metrics`,
      flags.auth ? '' : '  auth      OFF (loopback only): every request acts as the admin of tenant "default"',
      key === null ? '' : `  admin key (shown once, tenant "default"): ${key}`,
      key === null ? '' : `  try:      curl -H "Authorization: Bearer ${key}" ${address}/v1/keys`,
      stale === null ? '' : `  warning:  ${stale}`,
      'Stop with Ctrl-C (SIGINT) or SIGTERM.',
    ].filter((line) => line !== '');
    process.stdout.write(`${banner.join('\n')}\n`);
    const signal = await stopped.signal;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await worker?.stop();
  } finally {
    stopped.cancel();
    await engram?.close();
  }
}

/** A tool surface named on the command line, or CONFIG_INVALID naming the flag. */
function toolSurface(value: string, flag: string): 'lean' | 'full' {
  if (value !== 'lean' && value !== 'full')
    throw new EngramError('CONFIG_INVALID', `${flag}: must be lean or full, got ${JSON.stringify(value)}`, {
      field: flag,
    });
  return value;
}

/** Who the stdio server acts as: the local admin, or the key's principal, checked again before every call. */
async function mcpPrincipal(
  engram: Engram,
  flags: { noAuth?: boolean; key?: string },
): Promise<{ principal: KeyPrincipal; keyStillValid?: () => Promise<boolean> }> {
  if (flags.noAuth === true) return { principal: { key_id: 'local', tenant_id: 'default', role: 'admin' } };
  const secret = flags.key ?? process.env['ENGRAM_API_KEY'];
  if (secret === undefined || secret === '')
    throw new EngramError(
      'CONFIG_INVALID',
      'ENGRAM_API_KEY: set it (or --key) to an API key; --no-auth serves the default tenant locally',
      { field: 'ENGRAM_API_KEY' },
    );
  const principal: KeyPrincipal | null = await engram.keys.verify(secret);
  if (principal === null)
    throw new EngramError('CONFIG_INVALID', 'ENGRAM_API_KEY: not a valid, unrevoked key of this store', {
      field: 'ENGRAM_API_KEY',
    });
  // The process may run for days: every call checks that the key was not revoked meanwhile.
  return { principal, keyStillValid: async () => (await engram.keys.verify(secret))?.key_id === principal.key_id };
}

async function mcp(flags: { noAuth?: boolean; key?: string; tools: string; worker: boolean }): Promise<void> {
  const tools = toolSurface(flags.tools, '--tools');
  const engram = await createEngram(engramConfig());
  let worker: BackgroundWorker | null = null;
  try {
    const { principal, keyStillValid } = await mcpPrincipal(engram, flags);
    // Stdout carries the protocol: the worker's failures go to stderr, one line each.
    const onError = (error: unknown, task: string) =>
      process.stderr.write(
        `engram mcp: worker ${task} failed: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    const stale = staleVectors(await engram.maintenance.vectorModels());
    if (stale !== null) process.stderr.write(`engram mcp: ${stale}\n`);
    worker = flags.worker ? startBackgroundWorker(engram, { onError }) : null;
    await runMcpStdio(engram, principal, { tools, ...(keyStillValid === undefined ? {} : { keyStillValid }) });
  } finally {
    await worker?.stop();
    await engram.close();
  }
}

/** Runs a long command, reporting a failure like every other command. */
async function guarded(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    printError(error, globals().json === true);
    process.exitCode = exitCodeOf(error);
  }
}

/** Adds `serve` and `mcp`. */
export function registerServeCommands(program: Command): void {
  program
    .command('serve')
    .description('serve the HTTP API (/v1), MCP (/mcp) and the background worker on the store')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on', positiveInteger('--port'), 8787)
    .option('--no-auth', 'no API keys: every request acts as the admin of tenant "default" (loopback hosts only)')
    .option('--no-worker', 'do not run the background worker in this process')
    .option('--body-limit <bytes>', 'largest request body', positiveInteger('--body-limit'))
    .option(
      '--rate-limit <n>',
      'requests per key per minute (each call of an /mcp batch counts)',
      positiveInteger('--rate-limit'),
    )
    .option(
      '--allowed-host <names>',
      'other host names that reach this server (e.g. behind a proxy); comma-separated, repeatable',
      (value: string, previous: string[] = []) => [...previous, ...list(value)],
    )
    .option(
      '--import-max-line-bytes <n>',
      `longest line of a POST /v1/import body (default ${DEFAULT_MAX_LINE_BYTES}, 16 MiB)`,
      positiveInteger('--import-max-line-bytes'),
    )
    .option('--quiet', 'no request logs')
    .option('--no-inspector', 'do not serve the web inspector at /ui')
    .option(
      '--mcp-tools <surface>',
      "the tool list /mcp shows: lean (each tool's common arguments, ~3.4k tokens) or full (every argument and output schemas)",
      'lean',
    )
    .action((flags: ServeFlags) => guarded(() => serve(flags)));
  program
    .command('mcp')
    .description('serve MCP over stdio with the key in ENGRAM_API_KEY (or --key)')
    .option('--key <key>', 'API key (default: ENGRAM_API_KEY)')
    .option('--no-auth', 'no key: act as the admin of tenant "default" (a local process only)')
    .option(
      '--tools <surface>',
      "the tool list: lean (each tool's common arguments, ~3.4k tokens) or full (every argument and output schemas)",
      'lean',
    )
    .option('--no-worker', 'do not run the background worker (jobs, embeddings, expiry purges) in this process')
    .action((flags: { auth: boolean; key?: string; tools: string; worker: boolean }) =>
      guarded(() =>
        mcp({
          noAuth: !flags.auth,
          tools: flags.tools,
          worker: flags.worker,
          ...(flags.key === undefined ? {} : { key: flags.key }),
        }),
      ),
    );
}
