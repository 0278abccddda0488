// CLI commands of the service side: `keys` (create, list, revoke API keys), `worker` (the
// background worker on its own: jobs, embeddings and expiry purges until SIGINT or SIGTERM), `jobs`
// (what the background jobs did) and `migrate` (bring a store's schema up to date).

import type { Command } from 'commander';

import {
  JOB_KINDS,
  JOB_STATUSES,
  KEY_ROLES,
  migrateStore,
  staleVectors,
  startBackgroundWorker,
  type ApiKeyInfo,
  type Job,
  type KeyRole,
} from '../index.js';
import { exitCodeOf, printError, printJson, printLines } from './output.js';
import { globals, list, positiveInteger, withEngram } from './runner.js';

function keyLine(info: ApiKeyInfo): string {
  const state = info.revoked_at === null ? 'active' : `revoked ${info.revoked_at}`;
  return `${info.id}  ${info.tenant_id}  ${info.role.padEnd(5)}  …${info.last4}  ${info.label ?? ''}  created ${info.created_at}  ${state}`;
}

/**
 * The first SIGINT or SIGTERM, keeping the process alive until then (or until `cancel`, when the
 * command fails before it would wait).
 */
export function untilSignal(): { signal: Promise<NodeJS.Signals>; cancel(): void } {
  let stop: () => void = () => undefined;
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    const alive = setInterval(() => undefined, 1 << 30);
    const done = (received: NodeJS.Signals) => {
      stop();
      resolve(received);
    };
    stop = () => {
      clearInterval(alive);
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
  return { signal, cancel: () => stop() };
}

function jobLine(job: Job): string {
  const retry = job.status === 'pending' && job.lease_until !== null ? ` retry after ${job.lease_until}` : '';
  const error = job.last_error === null ? '' : `\n    ${job.last_error}`;
  return `${job.id}  ${job.kind}  ${job.status}${retry}  attempts ${job.attempts}  updated ${job.updated_at}${error}`;
}

/** Adds the `keys`, `worker`, `jobs` and `migrate` commands. */
export function registerServiceCommands(program: Command): void {
  program
    .command('migrate')
    .description("bring the store's schema to this version of Engram (safe to run from several processes at once)")
    .action(async () => {
      const options = globals();
      try {
        const result = await migrateStore(options.store);
        if (options.json === true) return printJson(result);
        printLines([
          result.applied.length === 0
            ? `schema is up to date (version ${result.to})`
            : `schema version ${result.from} → ${result.to}:`,
          ...result.applied.map((name, index) => `  ${result.from + index + 1}. ${name}`),
        ]);
      } catch (error) {
        printError(error, options.json === true);
        process.exitCode = exitCodeOf(error);
      }
    });

  const keys = program
    .command('keys')
    .description('API keys of the HTTP and MCP service: bound to a tenant and a role, stored hashed');
  keys
    .command('create')
    .description('create a key; its secret is printed once')
    .requiredOption('--role <role>', `one of ${KEY_ROLES.join(', ')}`)
    .option('--tenant <id>', 'tenant id', 'default')
    .option('--label <text>', 'what the key is for')
    .action((options: { role: string; tenant: string; label?: string }) =>
      withEngram(async (engram, global) => {
        const created = await engram.keys.create({
          tenant_id: options.tenant,
          role: options.role as KeyRole,
          ...(options.label === undefined ? {} : { label: options.label }),
        });
        if (global.json === true) return printJson(created);
        printLines([
          keyLine(created.info),
          '',
          `key: ${created.key}`,
          'Store it now: it is not shown again (only its hash is kept).',
        ]);
      }),
    );
  keys
    .command('list')
    .description("list keys (a tenant's, or every tenant's)")
    .option('--tenant <id>', 'only this tenant')
    .action((options: { tenant?: string }) =>
      withEngram(async (engram, global) => {
        const all = await engram.keys.list(options.tenant);
        if (global.json === true) return printJson(all);
        printLines(all.length === 0 ? ['no keys'] : all.map(keyLine));
      }),
    );
  keys
    .command('revoke <key_id>')
    .description('revoke a key; requests with it fail from then on')
    .option('--tenant <id>', 'tenant id', 'default')
    .action((keyId: string, options: { tenant: string }) =>
      withEngram(async (engram, global) => {
        await engram.keys.revoke(keyId, options.tenant);
        if (global.json === true) return printJson({ revoked: keyId });
        printLines([`${keyId}: revoked`]);
      }),
    );

  program
    .command('worker')
    .description(
      'run the background worker alone (jobs, embeddings, expiry purges, index merges) until SIGINT or SIGTERM',
    )
    .option('--interval <ms>', 'milliseconds between ticks', positiveInteger('--interval'), 1000)
    .option('--purge-every <ms>', 'milliseconds between expiry purges', positiveInteger('--purge-every'), 60_000)
    .action((options: { interval: number; purgeEvery: number }) =>
      withEngram(async (engram, global) => {
        const log = (line: Record<string, unknown>) =>
          global.json === true
            ? printJson(line)
            : printLines([
                Object.entries(line)
                  .map(([key, value]) => `${key}=${String(value)}`)
                  .join(' '),
              ]);
        const worker = startBackgroundWorker(engram, {
          intervalMs: options.interval,
          purgeEveryMs: options.purgeEvery,
          onTick: (report) => log({ event: 'tick', ...report }),
          onError: (error, task) =>
            log({ event: 'error', task, message: error instanceof Error ? error.message : String(error) }),
        });
        log({ event: 'started', interval_ms: options.interval });
        const stale = staleVectors(await engram.maintenance.vectorModels());
        if (stale !== null) log({ event: 'warning', message: stale });
        const signal = await untilSignal().signal;
        await worker.stop();
        log({ event: 'stopped', signal, ...worker.totals });
      }),
    );
  program
    .command('jobs')
    .description('background jobs, newest first: reflections of runs and LLM extractions of turns, with why one failed')
    .option('--tenant <id>', 'tenant id', 'default')
    .option('--kind <list>', `comma-separated kinds: ${JOB_KINDS.join(',')}`, list)
    .option('--status <list>', `comma-separated statuses: ${JOB_STATUSES.join(',')}`, list)
    .option('--limit <n>', 'at most this many', positiveInteger('limit'))
    .action((options: { tenant: string; kind?: string[]; status?: string[]; limit?: number }) =>
      withEngram(async (engram, global) => {
        const jobs = await engram.maintenance.listJobs({
          tenant_id: options.tenant,
          ...(options.kind === undefined ? {} : { kinds: options.kind as Job['kind'][] }),
          ...(options.status === undefined ? {} : { statuses: options.status as Job['status'][] }),
          ...(options.limit === undefined ? {} : { limit: options.limit }),
        });
        if (global.json === true) return printJson(jobs);
        printLines(jobs.length === 0 ? ['no jobs'] : jobs.map(jobLine));
      }),
    );
}
