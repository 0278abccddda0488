// CLI commands over context builds: list them, replay one exactly, compare two, explain why a
// record is or is not in one.

import type { Command } from 'commander';

import type { BuildExplanation, BuildRedaction } from '../index.js';
import { printJson, printLines } from './output.js';
import { positiveInteger, withEngram } from './runner.js';

/** Adds `builds`, `replay`, `diff` and `explain` to the program. */
export function registerBuildCommands(program: Command): void {
  program
    .command('builds')
    .description('list stored context builds, newest first')
    .option('--tenant <id>', 'tenant id', 'default')
    .option('--user <id>', 'user id')
    .option('--agent <id>', 'agent id')
    .option('--session <id>', 'session id')
    .option('--limit <n>', 'page size', positiveInteger('limit'))
    .option('--cursor <ctx_id>', 'continue before this build')
    .action(
      (flags: { tenant: string; user?: string; agent?: string; session?: string; limit?: number; cursor?: string }) =>
        withEngram(async (engram, global) => {
          const builds = await engram.builds.list({
            tenant_id: flags.tenant,
            ...(flags.user === undefined ? {} : { user_id: flags.user }),
            ...(flags.agent === undefined ? {} : { agent_id: flags.agent }),
            ...(flags.session === undefined ? {} : { session_id: flags.session }),
            ...(flags.limit === undefined ? {} : { limit: flags.limit }),
            ...(flags.cursor === undefined ? {} : { cursor: flags.cursor }),
          });
          if (global.json === true) return printJson(builds.map(({ packet: _packet, ...build }) => build));
          printLines(
            builds.length === 0
              ? ['no builds']
              : builds.map(
                  (build) =>
                    `${build.id}  ${build.as_of}  ${build.purpose.padEnd(9)} ${build.user_id}/${build.session_id}  ${build.packet.budget_report.used_tokens_est}/${build.packet.budget_report.max_tokens} tokens  ${build.selected.length} selected${build.redactions === undefined ? '' : '  (redacted by an erase)'}`,
                ),
          );
        }),
    );

  program
    .command('replay <build_id>')
    .description('rebuild a stored packet as of its time and check it is byte-identical')
    .option('--tenant <id>', 'tenant id', 'default')
    .action((buildId: string, flags: { tenant: string }) =>
      withEngram(async (engram, global) => {
        const result = await engram.builds.replay(buildId, flags.tenant);
        if (global.json === true) return printJson(result);
        printLines([
          `${result.build_id}: ${result.identical ? 'identical' : 'DIFFERENT'} (hash ${result.replay_hash.slice(0, 16)}…, stored ${result.original_hash.slice(0, 16)}…)`,
          ...redactionLines(result.redactions),
        ]);
        if (!result.identical) process.exitCode = 1;
      }),
    );

  program
    .command('diff <a> <b>')
    .description('what changed between two context builds')
    .option('--tenant <id>', 'tenant id', 'default')
    .action((a: string, b: string, flags: { tenant: string }) =>
      withEngram(async (engram, global) => {
        const diff = await engram.builds.diff(a, b, flags.tenant);
        if (global.json === true) printJson(diff);
        else printLines(diff.summary);
      }),
    );

  program
    .command('explain <build_id> <id>')
    .description(
      "why an event (evt_…) or item (mem_…) is, or is not, in a stored packet: placement, filter or omission, and each signal's rank as of the build's time",
    )
    .option('--tenant <id>', 'tenant id', 'default')
    .action((buildId: string, id: string, flags: { tenant: string }) =>
      withEngram(async (engram, global) => {
        const explanation = await engram.builds.explain({ tenant_id: flags.tenant, build_id: buildId, id });
        if (global.json === true) printJson(explanation);
        else printLines(explanationLines(explanation));
      }),
    );
}

/** An explanation for people: the verdict, then each signal's rank and what the packet recorded. */
export function explanationLines(explanation: BuildExplanation): string[] {
  const where = explanation.in_packet ? 'in the packet' : 'not in the packet';
  const filter = explanation.filter === null ? '' : ` (${explanation.filter})`;
  const signals = Object.entries(explanation.signals)
    .map(
      ([name, signal]) =>
        `${name} ${signal.rank === null ? '–' : `#${signal.rank}`}${signal.used ? '' : ' (not used by compose)'}`,
    )
    .join(' · ');
  const fused = explanation.fused_rank === null ? '–' : `#${explanation.fused_rank}`;
  return [
    `${explanation.id} in ${explanation.build_id} (as of ${explanation.as_of}): ${where} — ${explanation.verdict}${filter}`,
    `  ${explanation.detail}`,
    `  signals: ${signals}; fused ${fused} (ranked ${explanation.depth} deep; compose read ${explanation.read_depth})`,
    ...explanation.omissions.map((omission) => `  omitted ${omission.item}: ${omission.reason}`),
    ...explanation.notes.map((note) => `  note: ${note}`),
  ];
}

/** What the erases that redacted a build removed, for the replay's output. */
function redactionLines(redactions: readonly BuildRedaction[]): string[] {
  return redactions.map(
    (redaction) =>
      `  REDACTED by an erase of a ${redaction.erased} at ${redaction.at}: ${redaction.removed_entries} entries that quoted erased data were removed from the stored packet; the replay composes without that data`,
  );
}
