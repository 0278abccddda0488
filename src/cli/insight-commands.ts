// CLI commands over insights: add a hypothesis, strategy sketch or pattern to a run, list a user's
// live ones, move one through its validation states, and promote a validated one to an item.

import { Option, type Command } from 'commander';

import type { InsightRecord, InsightType, MemoryType, ValidationState } from '../index.js';
import { printJson, printLines } from './output.js';
import { list, positiveInteger, withEngram } from './runner.js';
import {
  collect,
  jsonFlag,
  optional,
  runScope,
  scoped,
  scopeOf,
  unitNumber,
  oneLine,
  diffLines,
  type ScopeFlags,
} from './flags.js';

function insightLine(insight: InsightRecord): string {
  const expiry =
    insight.expired_at !== null
      ? `expired ${insight.expired_at}`
      : insight.expires_at === null
        ? 'no expiry'
        : `expires ${insight.expires_at}`;
  const promoted = insight.promoted_to === null ? '' : `  promoted to ${insight.promoted_to}`;
  const tests =
    insight.tests_suggested.length === 0
      ? []
      : [`    tests: ${insight.tests_suggested.map((test) => oneLine(test, 80)).join(' | ')}`];
  return [
    `${insight.id}  ${insight.type.padEnd(10)} ${insight.validation_state.padEnd(11)} conf ${insight.confidence}  ${expiry}${promoted}  (run ${insight.run_id})`,
    `    ${oneLine(insight.statement, 200)}`,
    ...tests,
  ].join('\n');
}

export function registerInsightCommands(program: Command): void {
  const insights = program
    .command('insights')
    .description('hypotheses, strategy sketches and patterns, and their validation');
  insightsList(insights);
  insightsAdd(insights);
  insightsSet(insights);
  insightsPromote(insights);
}

function insightsList(insights: Command): void {
  scoped(insights.command('list').description('live insights of a user, oldest first'), false)
    .option('--run <id>', 'only this run')
    .option('--state <list>', 'comma-separated: unvalidated,testing,validated,rejected', list)
    .option('--type <list>', 'comma-separated: hypothesis,strategy,pattern', list)
    .option('--all', 'include expired insights')
    .option('--limit <n>', 'page size', positiveInteger('limit'))
    .option('--cursor <insight_id>', 'continue after this insight')
    .action(
      (flags: ScopeFlags & { state?: string[]; type?: string[]; all?: boolean; limit?: number; cursor?: string }) =>
        withEngram(async (engram, global) => {
          const found = await engram.insights.list({
            scope: scopeOf(flags),
            ...optional('states', flags.state as ValidationState[] | undefined),
            ...optional('types', flags.type as InsightType[] | undefined),
            ...(flags.all === true ? { include_expired: true } : {}),
            ...optional('limit', flags.limit),
            ...optional('cursor', flags.cursor),
          });
          if (global.json === true) printJson(found);
          else printLines(found.length === 0 ? ['no insights'] : found.map(insightLine));
        }),
    );
}

function insightsAdd(insights: Command): void {
  scoped(insights.command('add').description('add an unvalidated insight to a run'), true)
    .requiredOption('--run <id>', 'run id')
    .option('--session <id>', 'session id')
    .addOption(
      new Option('--type <type>', 'what it is').choices(['hypothesis', 'strategy', 'pattern']).makeOptionMandatory(),
    )
    .requiredOption('--statement <text>', 'the insight in one sentence')
    .addOption(
      new Option('--trigger <trigger>', 'what prompted it').choices(['conflict', 'failure', 'synthesis', 'analogy']),
    )
    .option('--test <text>', 'a test that would validate it (repeatable)', collect)
    .option('--expires <when>', 'run_end (default), an ISO time, or never')
    .option('--confidence <n>', 'from 0 to 1 (default 0.3)', unitNumber('confidence'))
    .option('--by <name>', 'who adds it (default agent)')
    .action(
      (
        flags: ScopeFlags & {
          agent: string;
          run: string;
          type: InsightType;
          statement: string;
          trigger?: 'conflict' | 'failure' | 'synthesis' | 'analogy';
          test?: string[];
          expires?: string;
          confidence?: number;
          by?: string;
        },
      ) =>
        withEngram(async (engram, global) => {
          const insight = await engram.insights.add({
            scope: runScope(flags),
            type: flags.type,
            statement: flags.statement,
            ...optional('trigger', flags.trigger),
            ...optional('tests_suggested', flags.test),
            ...optional('expires_at', flags.expires === 'never' ? null : flags.expires),
            ...optional('confidence', flags.confidence),
            ...optional('by', flags.by),
          });
          if (global.json === true) printJson(insight);
          else printLines([insightLine(insight)]);
        }),
    );
}

function insightsSet(insights: Command): void {
  insights
    .command('set <insight_id> <state>')
    .description('move an insight: unvalidated → testing → validated | rejected')
    .option('--tenant <id>', 'tenant id', 'default')
    .option('--note <text>', 'why, kept in its history')
    .option('--by <name>', 'who (default user)')
    .action((insightId: string, state: string, flags: { tenant: string; note?: string; by?: string }) =>
      withEngram(async (engram, global) => {
        const insight = await engram.insights.update({
          tenant_id: flags.tenant,
          insight_id: insightId,
          state: state as ValidationState,
          ...optional('note', flags.note),
          ...optional('by', flags.by),
        });
        if (global.json === true) printJson(insight);
        else printLines([insightLine(insight)]);
      }),
    );
}

function insightsPromote(insights: Command): void {
  insights
    .command('promote <insight_id>')
    .description('promote a validated insight to an item (a fact type or a procedure)')
    .option('--tenant <id>', 'tenant id', 'default')
    .requiredOption('--type <type>', 'memory type of the item')
    .requiredOption('--key <key>', 'item key')
    .option('--value <json>', 'the item value as JSON')
    .option('--value-file <path>', 'the item value from a JSON file (- reads stdin)')
    .option('--by <name>', 'who (default user)')
    .action(
      (
        insightId: string,
        flags: { tenant: string; type: string; key: string; value?: string; valueFile?: string; by?: string },
      ) =>
        withEngram(async (engram, global) => {
          const value = await jsonFlag('value', flags.value, flags.valueFile);
          const request = {
            tenant_id: flags.tenant,
            insight_id: insightId,
            type: flags.type as MemoryType,
            key: flags.key,
            ...optional('value', value as Record<string, unknown> | undefined),
            ...optional('by', flags.by),
          };
          const result = await engram.insights.promote(request as typeof request & { value: Record<string, unknown> });
          if (global.json === true) printJson(result);
          else
            printLines([
              ...diffLines(result.items),
              `${result.insight.id}: promoted to ${result.insight.promoted_to ?? '(nothing written)'}`,
            ]);
        }),
    );
}

/** Adds `reflect`, `review list|show|approve|reject` and `insights list|add|set|promote` to the program. */
