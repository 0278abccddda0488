#!/usr/bin/env node
// The `engram` command: a thin layer over the public API. Every command takes --store (default
// the embedded SQLite file under ./.engram/, or ENGRAM_STORE), --json for machine output, and the
// model settings (--extract, --llm-base-url, --llm-model or their ENGRAM_ variables).

import { Command, Option } from 'commander';

import { DEFAULT_STORE, renderPacket, type CompactionOutcome, type Purpose } from '../index.js';
import { runDemo } from './demo.js';
import { formatPacket } from './format-packet.js';
import { registerBuildCommands } from './build-commands.js';
import { registerEventCommands } from './event-commands.js';
import { registerMemoryCommands } from './memory-commands.js';
import { registerServiceCommands } from './service-commands.js';
import { registerServeCommands } from './serve-command.js';
import { addModelOptions } from './model-options.js';
import { registerTransferCommands } from './transfer-commands.js';
import { registerReviewCommands } from './review-commands.js';
import { registerInsightCommands } from './insight-commands.js';
import { registerRunCommands } from './run-commands.js';
import { exitCodeOf, printError, printJson, printLines } from './output.js';
import { globals, list, positiveInteger, readJson, setRoot, withEngram } from './runner.js';

const program = new Command()
  .name('engram')
  .description('Memory runtime for LLM agents: commit turns, compose token-budgeted MemoryPackets.')
  .addOption(
    new Option('--store <address>', 'store address: sqlite:PATH or postgres://user@host:port/db[?schema=NAME]')
      .env('ENGRAM_STORE')
      .default(DEFAULT_STORE),
  )
  .option('--json', 'print machine-readable JSON')
  .showHelpAfterError();
addModelOptions(program);

setRoot(program);

program
  .command('demo')
  .description('commit the example conversation in examples/quickstart and print the composed packets')
  .action(() => withEngram((engram, options) => runDemo(engram, options.json === true)));

program
  .command('commit')
  .description('commit a turn (the commitTurn object) or an array of turns from a JSON file or stdin')
  .option('-f, --file <path>', 'JSON file; - or omitted reads stdin')
  .action((options: { file?: string }) =>
    withEngram(async (engram, global) => {
      const input = await readJson(options.file);
      const results = Array.isArray(input)
        ? await engram.commitTurns(input)
        : [await engram.commitTurn(input as never)];
      if (global.json === true) return printJson(Array.isArray(input) ? results : results[0]);
      printLines(
        results.flatMap((result) => [
          `${result.turn_id}: ${result.replayed ? 'already committed (nothing written)' : `${result.events.length} events written`}, working state v${result.working_state.state_version}`,
          ...compactionLines(result.compaction),
        ]),
      );
    }),
  );

function compactionLines(outcome: CompactionOutcome | undefined): string[] {
  if (outcome === undefined) return [];
  const head = `  snapshot ${outcome.snapshot_id} #${outcome.sequence} ${outcome.status}${outcome.attempts > 1 ? ` after ${outcome.attempts} attempts` : ''}`;
  return outcome.stopped
    ? [`${head}: run stopped (RUN_STOPPED until \`engram runs resume\`)`, `  ${outcome.diagnostic ?? ''}`]
    : [head];
}

program
  .command('compose')
  .description('compose a MemoryPacket for the next LLM call')
  .requiredOption('--user <id>', 'user id')
  .requiredOption('--agent <id>', 'agent id')
  .requiredOption('--session <id>', 'session id')
  .requiredOption('--run <id>', 'run id')
  .addOption(
    new Option('--purpose <purpose>', 'who the packet is for')
      .choices(['planner', 'tool', 'responder'])
      .makeOptionMandatory(),
  )
  .option('--tenant <id>', 'tenant id', 'default')
  .option('--task-type <type>', 'task type, selects procedures')
  .option('--query <text>', 'free-text cue matched against the history')
  .option('--keywords <list>', 'comma-separated keyword cues', list)
  .option('--entities <list>', 'comma-separated entity cues', list)
  .option('--max-tokens <n>', 'total token budget', positiveInteger('max_tokens'))
  .option('--window <n>', 'recent messages to include (0 turns the window off)', positiveInteger('conversation_window'))
  .option('--as-of <time>', 'compose as the store was at this ISO time')
  .addOption(new Option('--render <format>', 'print the prompt text instead of the packet').choices(['md', 'xml']))
  .action((options: Record<string, unknown>) =>
    withEngram(async (engram, global) => {
      const cues: Record<string, unknown> = {};
      if (options['query'] !== undefined) cues['query'] = options['query'];
      if (options['keywords'] !== undefined) cues['keywords'] = options['keywords'];
      if (options['entities'] !== undefined) cues['entities'] = options['entities'];
      const packet = await engram.compose({
        scope: {
          tenant_id: options['tenant'] as string,
          user_id: options['user'] as string,
          agent_id: options['agent'] as string,
          session_id: options['session'] as string,
          run_id: options['run'] as string,
        },
        purpose: options['purpose'] as Purpose,
        ...(options['taskType'] === undefined ? {} : { task_type: options['taskType'] as string }),
        ...(Object.keys(cues).length === 0 ? {} : { cues }),
        ...(options['maxTokens'] === undefined ? {} : { budget: { max_tokens: options['maxTokens'] as number } }),
        ...(options['window'] === undefined ? {} : { conversation_window: options['window'] as number }),
        ...(options['asOf'] === undefined ? {} : { as_of: options['asOf'] as string }),
      });
      if (options['render'] !== undefined)
        process.stdout.write(renderPacket(packet, { format: options['render'] === 'xml' ? 'xml' : 'markdown' }));
      else if (global.json === true) printJson(packet);
      else printLines(formatPacket(packet));
    }),
  );

program
  .command('state')
  .description("print a session's working state")
  .requiredOption('--user <id>', 'user id')
  .requiredOption('--agent <id>', 'agent id')
  .requiredOption('--session <id>', 'session id')
  .option('--tenant <id>', 'tenant id', 'default')
  .action((options: Record<string, string>) =>
    withEngram(async (engram) => {
      printJson(
        await engram.sessions.workingState({
          tenant_id: options['tenant']!,
          user_id: options['user']!,
          agent_id: options['agent']!,
          session_id: options['session']!,
        }),
      );
    }),
  );

registerEventCommands(program);
registerMemoryCommands(program);
registerServiceCommands(program);
registerServeCommands(program);
registerTransferCommands(program);
registerBuildCommands(program);
registerReviewCommands(program);
registerInsightCommands(program);
registerRunCommands(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  printError(error, globals().json === true);
  process.exitCode = exitCodeOf(error);
});
