// CLI commands over long-term memory: remember, forget, items, history, search, reindex, reextract, embed.

import type { Command } from 'commander';

import type { ItemDiff, MemoryItem, MemoryType, SearchHit } from '../index.js';
import { describeItem, staleVectors } from '../index.js';
import { printJson, printLines } from './output.js';
import { list, positiveInteger, readJson, withEngram } from './runner.js';
import { diffLines, scoped } from './flags.js';
import { progress } from './transfer-commands.js';

interface ScopeFlags {
  tenant: string;
  user: string;
  agent?: string;
}

function readerScope(flags: ScopeFlags) {
  return {
    tenant_id: flags.tenant,
    user_id: flags.user,
    ...(flags.agent === undefined ? {} : { agent_id: flags.agent }),
  };
}

/** The scope flags of an item command: the agent, when given, adds its agent-level items. */
const itemScoped = (command: Command, agentRequired: boolean): Command =>
  scoped(command, agentRequired, 'agent id (adds its agent-level items)');

/** What a write changed, one line per item version, or that nothing did. */
const changeLines = (diffs: readonly ItemDiff[]): string[] =>
  diffs.length === 0 ? ['nothing changed'] : diffLines(diffs);

function itemLine(item: MemoryItem): string {
  const validity = item.valid_to === null ? '' : ` until ${item.valid_to.slice(0, 10)}`;
  return `${item.key}  v${item.version} ${item.status} ${item.scope_level} conf ${item.confidence}${validity}\n    ${describeItem(item)}  [${item.id}]`;
}

function hitLine(hit: SearchHit, index: number): string {
  const { full_text: text, vector, recency, salience } = hit.signals;
  const signals = [
    `text ${text === null ? '–' : `#${text.rank} (${text.score})`}`,
    `vector ${vector === null ? '–' : `#${vector.rank} (${vector.similarity})`}`,
    `recency #${recency.rank}`,
    `salience #${salience.rank} (${salience.value})`,
  ].join(', ');
  return `${index + 1}. ${hit.item.key} — ${describeItem(hit.item)}\n    score ${hit.score}: ${signals}`;
}

/** Adds the long-term memory commands to the program. */
export function registerMemoryCommands(program: Command): void {
  program
    .command('remember')
    .description('write an item explicitly (the remember object: scope, type, key, value, …) from a JSON file or stdin')
    .option('-f, --file <path>', 'JSON file; - or omitted reads stdin')
    .action((options: { file?: string }) =>
      withEngram(async (engram, global) => {
        const diffs = await engram.items.remember((await readJson(options.file)) as never);
        if (global.json === true) printJson(diffs);
        else printLines(changeLines(diffs));
      }),
    );

  itemScoped(program.command('forget').description('retract an item (history kept), or delete it with --delete'), true)
    .option('--key <key>', 'every current version of this key')
    .option('--id <item_id>', 'one version')
    .option('--delete', 'remove the versions, chunks and vectors for good')
    .option('--reason <text>', 'why, kept in the provenance')
    .action((flags: ScopeFlags & { key?: string; id?: string; delete?: boolean; reason?: string }) =>
      withEngram(async (engram, global) => {
        const diffs = await engram.items.forget({
          scope: { tenant_id: flags.tenant, user_id: flags.user, agent_id: flags.agent! },
          ...(flags.key === undefined ? {} : { key: flags.key }),
          ...(flags.id === undefined ? {} : { item_id: flags.id }),
          mode: flags.delete === true ? 'delete' : 'retract',
          ...(flags.reason === undefined ? {} : { reason: flags.reason }),
        });
        if (global.json === true) printJson(diffs);
        else printLines(changeLines(diffs));
      }),
    );

  itemScoped(program.command('items').description('list the items a user can see (current ones by default)'), false)
    .option('--types <list>', 'comma-separated memory types', list)
    .option('--status <list>', 'comma-separated statuses: active,superseded,retracted', list)
    .option('--limit <n>', 'page size', positiveInteger('limit'))
    .option('--cursor <item_id>', 'continue after this item')
    .action((flags: ScopeFlags & { types?: string[]; status?: string[]; limit?: number; cursor?: string }) =>
      withEngram(async (engram, global) => {
        const items = await engram.items.list({
          scope: readerScope(flags),
          ...(flags.types === undefined ? {} : { types: flags.types as MemoryType[] }),
          ...(flags.status === undefined ? {} : { status: flags.status as MemoryItem['status'][] }),
          ...(flags.limit === undefined ? {} : { limit: flags.limit }),
          ...(flags.cursor === undefined ? {} : { cursor: flags.cursor }),
        });
        if (global.json === true) printJson(items);
        else printLines(items.length === 0 ? ['no items'] : items.map(itemLine));
      }),
    );

  itemScoped(program.command('history').description('every version of a key, oldest first, with its evidence'), false)
    .requiredOption('--key <key>', 'the item key')
    .action((flags: ScopeFlags & { key: string }) =>
      withEngram(async (engram, global) => {
        const versions = await engram.items.history({ scope: readerScope(flags), key: flags.key });
        if (global.json === true) return printJson(versions);
        printLines(
          versions.length === 0
            ? ['no versions']
            : versions.map(
                (item) =>
                  `${itemLine(item)}\n    from ${item.provenance.extractor}:${item.provenance.rule} · sources ${item.source_event_ids.join(', ') || '–'}`,
              ),
        );
      }),
    );

  itemScoped(
    program
      .command('search')
      .description(
        "search a user's long-term memory items (facts, preferences, tasks, procedures, …): hybrid, with per-signal scores; the conversation's events: engram events search",
      ),
    false,
  )
    .requiredOption('--query <text>', 'what to look for')
    .option('--types <list>', 'comma-separated memory types', list)
    .option('-k, --k <n>', 'how many hits', positiveInteger('k'))
    .action((flags: ScopeFlags & { query: string; types?: string[]; k?: number }) =>
      withEngram(async (engram, global) => {
        const hits = await engram.items.search({
          scope: readerScope(flags),
          query: flags.query,
          ...(flags.types === undefined ? {} : { types: flags.types as MemoryType[] }),
          ...(flags.k === undefined ? {} : { k: flags.k }),
        });
        if (global.json === true) printJson(hits);
        else printLines(hits.length === 0 ? ['no hits'] : hits.map(hitLine));
      }),
    );

  program
    .command('compact')
    .description(
      'give the space of deleted rows back and rewrite the files so erased data is gone from them (SQLite: full-text merge, VACUUM, WAL truncation; PostgreSQL: VACUUM FULL and ANALYZE of each table); exit 5 when another process kept a step from finishing',
    )
    .action(() =>
      withEngram(async (engram, global) => {
        const result = await engram.maintenance.compact();
        // A step other processes kept from finishing is an outcome to act on (run it again), not a crash.
        if (!result.complete) process.exitCode = 5;
        if (global.json === true) return printJson(result);
        const sizes =
          result.before_bytes === null || result.after_bytes === null
            ? ''
            : `: ${result.before_bytes} → ${result.after_bytes} bytes`;
        printLines(
          result.complete
            ? [`compacted the store${sizes}`]
            : [`compacted the store only in part${sizes}; not done:`, ...result.not_done.map((line) => `  - ${line}`)],
        );
      }),
    );
  program
    .command('reindex')
    .description(
      'rebuild every derived index: item chunks, their full-text entries and queued embeddings from the items, and event full-text entries from the events',
    )
    .option('--tenant <id>', 'only this tenant')
    .action((flags: { tenant?: string }) =>
      withEngram(async (engram, global) => {
        const bar = progress(
          global.json === true,
          'reindex |{bar}| {percentage}% | {value}/{total} items | {rate}/s | ETA {eta_formatted}',
        );
        const started = Date.now();
        const result = await engram.maintenance.reindex(flags.tenant, (part, done, total) => {
          // The bar follows the items (their total is known); events follow in pages of 500.
          if (bar === null || part !== 'items' || total === null) return;
          if (done <= 500) bar.start(total, 0, { rate: 0 });
          bar.update(done, { rate: Math.round(done / Math.max(0.001, (Date.now() - started) / 1000)) });
        });
        bar?.stop();
        if (global.json === true) printJson({ reindexed: result });
        else
          printLines([
            `reindexed ${result.items} item versions (their embeddings are queued: engram embed) and ${result.events} events`,
          ]);
      }),
    );

  program
    .command('reextract')
    .description(
      "re-run today's rule extraction over a user's log and bring their items in line: changed values as new versions, what the rules no longer find retracted; items written on purpose stay",
    )
    .requiredOption('--user <id>', 'the user whose memory to re-extract')
    .option('--tenant <id>', 'their tenant (default: default)')
    .option('--dry-run', 'show the changes without writing them')
    .action((flags: { user: string; tenant?: string; dryRun?: boolean }) =>
      withEngram(async (engram, global) => {
        const result = await engram.items.reextract({
          user_id: flags.user,
          ...(flags.tenant === undefined ? {} : { tenant_id: flags.tenant }),
          dry_run: flags.dryRun === true,
        });
        if (global.json === true) {
          printJson(result);
          return;
        }
        const verb = result.dry_run ? 'would change' : 'changed';
        printLines([
          `read ${result.turns} turns of ${result.user_id}; ${verb} ${result.items.length} item versions${result.kept.length === 0 ? '' : `; kept ${result.kept.length} keys written on purpose or retracted`}`,
          ...result.items.map((diff) => `  ${diff.action.padEnd(10)} ${diff.key} (v${diff.version})`),
        ]);
      }),
    );

  program
    .command('embed')
    .description('embed the texts waiting for a vector now, with the local model')
    .option('--max <n>', 'at most this many', positiveInteger('max'))
    .action((flags: { max?: number }) =>
      withEngram(async (engram, global) => {
        const run = await engram.maintenance.runEmbeddings(flags.max);
        const left = await engram.maintenance.embeddingBacklog();
        const models = await engram.maintenance.vectorModels();
        const stale = staleVectors(models);
        if (global.json === true) printJson({ ...run, backlog: left, vector_models: models.models });
        else
          printLines([
            `embedded ${run.embedded}, skipped ${run.skipped}, ${left} waiting`,
            ...(stale === null ? [] : [`warning: ${stale}`]),
          ]);
      }),
    );
}
