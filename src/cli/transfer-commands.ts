// CLI commands that move data: `export` (JSON Lines of a tenant or one user), `import` (an export
// into a tenant of this store) and `erase` (a user or one session, with everything derived). Long
// ones show a progress bar with rate and time left on a terminal, and stay quiet when piped or with --json.

import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { once } from 'node:events';
import { Transform } from 'node:stream';
import type { Command } from 'commander';
import { SingleBar } from 'cli-progress';

import { DEFAULT_MAX_LINE_BYTES, type ExportKind, type TransferCounts } from '../index.js';
import { printJson, printLines } from './output.js';
import { positiveInteger, withEngram } from './runner.js';

/** A progress bar on stderr when it is a terminal and output is for people; otherwise nothing. */
export function progress(json: boolean, format: string): SingleBar | null {
  if (json || process.stderr.isTTY !== true) return null;
  return new SingleBar({ format, stream: process.stderr, hideCursor: true, etaBuffer: 50, fps: 5 });
}

function countLines(counts: TransferCounts): string[] {
  const entries = Object.entries(counts).filter(([, count]) => (count ?? 0) > 0);
  return entries.length === 0 ? ['nothing'] : entries.map(([kind, count]) => `${String(count).padStart(8)}  ${kind}`);
}

/** Adds `export`, `import` and `erase`. */
export function registerTransferCommands(program: Command): void {
  program
    .command('export')
    .description('write a tenant (or one user) as JSON Lines: a header, then every record (secret content withheld)')
    .option('--tenant <id>', 'tenant id', 'default')
    .option('--user <id>', 'only this user')
    .option('--out <file>', 'write to a file instead of stdout')
    .action((options: { tenant: string; user?: string; out?: string }) =>
      withEngram(async (engram, global) => {
        const out = options.out === undefined ? process.stdout : createWriteStream(options.out);
        const bar =
          options.out === undefined
            ? null
            : progress(global.json === true, 'export |{bar}| {value} records | {rate}/s | {duration_formatted}');
        const counts: TransferCounts = {};
        let written = 0;
        const started = Date.now();
        bar?.start(0, 0, { rate: 0 });
        for await (const line of engram.maintenance.exportData(
          { tenant_id: options.tenant, ...(options.user === undefined ? {} : { user_id: options.user }) },
          (kind) => (counts[kind] = (counts[kind] ?? 0) + 1),
        )) {
          if (!out.write(`${line}\n`)) await once(out, 'drain');
          written += 1;
          if (bar !== null && written % 200 === 0) {
            bar.setTotal(written);
            bar.update(written, { rate: Math.round(written / Math.max(0.001, (Date.now() - started) / 1000)) });
          }
        }
        bar?.stop();
        if (options.out !== undefined) {
          out.end();
          await once(out, 'finish');
          if (global.json === true) printJson({ file: options.out, counts });
          else printLines([`exported to ${options.out}:`, ...countLines(counts)]);
        }
      }),
    );

  program
    .command('import <file>')
    .description(
      'import an export (JSON Lines; - for stdin) into a tenant of this store, a batch per transaction; run again after an interruption, it skips what is there and finishes',
    )
    .option('--tenant <id>', 'tenant to import into (every record is rewritten to it)', 'default')
    .option(
      '--max-line-bytes <n>',
      `longest line read, in bytes (default ${DEFAULT_MAX_LINE_BYTES}, 16 MiB)`,
      positiveInteger('--max-line-bytes'),
    )
    .action((file: string, options: { tenant: string; maxLineBytes?: number }) =>
      withEngram(async (engram, global) => {
        const total = file === '-' ? 0 : statSync(file).size;
        const bar =
          total === 0
            ? null
            : progress(
                global.json === true,
                'import |{bar}| {percentage}% | {value}/{total} bytes | ETA {eta_formatted}',
              );
        let read = 0;
        const counter = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            read += chunk.length;
            bar?.update(read);
            done(null, chunk);
          },
        });
        const input = (file === '-' ? process.stdin : createReadStream(file)).pipe(counter);
        bar?.start(total, 0);
        const skipped: TransferCounts = {};
        const onSkip = (kind: ExportKind) => (skipped[kind] = (skipped[kind] ?? 0) + 1);
        const counts = await engram.maintenance.importData(input, {
          tenant_id: options.tenant,
          onSkip,
          ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
        });
        bar?.update(total);
        bar?.stop();
        if (global.json === true) return printJson({ tenant_id: options.tenant, counts, skipped });
        const already = Object.keys(skipped).length === 0 ? [] : ['already there (skipped):', ...countLines(skipped)];
        printLines([`imported into tenant ${options.tenant}:`, ...countLines(counts), ...already]);
      }),
    );

  program
    .command('erase')
    .description(
      'erase a user (or one session of theirs) with everything derived from it: events, memory, reviews, snapshots, builds',
    )
    .requiredOption('--user <id>', 'user id')
    .option('--session <id>', 'only this session')
    .option('--tenant <id>', 'tenant id', 'default')
    .action((options: { user: string; session?: string; tenant: string }) =>
      withEngram(async (engram, global) => {
        const counts = await engram.maintenance.erase({
          tenant_id: options.tenant,
          user_id: options.user,
          ...(options.session === undefined ? {} : { session_id: options.session }),
        });
        if (global.json === true) return printJson(counts);
        const removed = Object.entries(counts).filter(([, count]) => count > 0);
        printLines(
          removed.length === 0
            ? ['nothing to erase']
            : [
                `erased ${options.session === undefined ? `user ${options.user}` : `session ${options.session} of ${options.user}`}:`,
                ...removed.map(([table, count]) => `${String(count).padStart(8)}  ${table}`),
              ],
        );
      }),
    );
}
