// CLI commands over long runs and their compaction snapshots: list, show and render a run's
// snapshots, show what a run has recorded (status, objective, counters), and resume a run that a
// failed snapshot stopped. Requests go to the library as objects; its typed errors are printed as is.

import type { Command } from 'commander';

import type {
  Claim,
  CompactionSnapshot,
  Conflict,
  EvidencePointer,
  RunScope,
  RunState,
  SnapshotRecord,
} from '../index.js';
import { printJson, printLines } from './output.js';
import { positiveInteger, withEngram } from './runner.js';
import { oneLine, optional } from './flags.js';

interface RunFlags {
  tenant: string;
  user: string;
  agent: string;
  run: string;
}

const runScopeOf = (flags: RunFlags): RunScope => ({
  tenant_id: flags.tenant,
  user_id: flags.user,
  agent_id: flags.agent,
  run_id: flags.run,
});

/** A run's statements on one line, cut at 200 characters. */
const line = (text: string): string => oneLine(text, 200);

const doneText = (done: CompactionSnapshot['done_definition'] | null): string =>
  done === null ? '(not recorded)' : typeof done === 'string' ? done : JSON.stringify(done);

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

function runFlags(command: Command): Command {
  return command
    .requiredOption('--user <id>', 'user id')
    .requiredOption('--agent <id>', 'agent id')
    .requiredOption('--run <id>', 'run id')
    .option('--tenant <id>', 'tenant id', 'default');
}

function validationText(snapshot: CompactionSnapshot): string {
  const { status, failure_action_taken: action } = snapshot.validation;
  return action === 'NONE' ? status : `${status} (${action})`;
}

/** One line per snapshot: id, run, sequence, time, validation, claims verified/total, conflicts, questions. */
function snapshotLine(record: SnapshotRecord): string {
  const { snapshot } = record;
  const verified = snapshot.state.claims.filter((claim) => claim.status === 'verified').length;
  return [
    snapshot.snapshot_id,
    `${record.agent_id}/${record.run_id} #${snapshot.sequence}`,
    snapshot.created_at,
    validationText(snapshot).padEnd(4),
    `claims ${verified}/${snapshot.state.claims.length} verified`,
    `conflicts ${snapshot.state.conflicts.length}`,
    `open questions ${snapshot.state.open_questions.length}`,
  ].join('  ');
}

function pointerText(pointer: EvidencePointer): string {
  return `${pointer.evidence_id} → ${pointer.corpus_id} ${pointer.chunk_id} [${pointer.span[0]}, ${pointer.span[1]})`;
}

function claimLines(claim: Claim): string[] {
  return [
    `  ${claim.claim_id}  ${claim.status}  ${line(claim.statement)}`,
    ...claim.evidence_refs.map((pointer) => `      evidence ${pointerText(pointer)}`),
  ];
}

function conflictLines(conflict: Conflict): string[] {
  const side = (refs: readonly EvidencePointer[]) => refs.map((pointer) => pointer.evidence_id).join(', ') || '–';
  return [
    `  ${conflict.conflict_id}  ${line(conflict.description)}`,
    `      side A ${side(conflict.side_a_refs)}`,
    `      side B ${side(conflict.side_b_refs)}`,
  ];
}

/** A titled block: `title (count[, note])` then its lines, or `title: none`. */
function block(title: string, lines: readonly string[], count: number, note?: string): string[] {
  return count === 0 ? [`${title}: none`] : [`${title} (${count}${note === undefined ? '' : `, ${note}`}):`, ...lines];
}

/** The human summary of one snapshot: where it belongs, its gate checks, then its state. */
function snapshotBlock(record: SnapshotRecord): string[] {
  const { snapshot } = record;
  const { state, counts, validation } = snapshot;
  const verified = state.claims.filter((claim) => claim.status === 'verified').length;
  const coverage = state.source_coverage;
  return [
    `${snapshot.snapshot_id}  run ${record.run_id} #${snapshot.sequence}  ${snapshot.created_at}`,
    `  user ${record.user_id}, agent ${record.agent_id}, session ${record.session_id}, tenant ${record.tenant_id}`,
    `objective: ${line(snapshot.objective)}`,
    `done definition: ${line(doneText(snapshot.done_definition))}`,
    `since the previous snapshot: ${plural(counts.counted_events_since_last_compaction, 'counted event')}, ${plural(counts.steps_since_last_compaction, 'step')}, ${plural(snapshot.latest_context_manifest_ids.length, 'context build')}`,
    `provenance ${snapshot.provenance_mode}, policy ${snapshot.policy_snapshot_ref ?? 'none'}`,
    `validation: ${validation.status}, action ${validation.failure_action_taken}`,
    ...validation.checks.map((check) => `  ${check.status.padEnd(4)} ${check.name}: ${check.message}`),
    ...block('claims', state.claims.flatMap(claimLines), state.claims.length, `${verified} verified`),
    ...block('conflicts', state.conflicts.flatMap(conflictLines), state.conflicts.length),
    ...block(
      'failures',
      state.failures.map(
        (failure) => `  ${failure.failure_id}  ${failure.category} at ${failure.where}: ${line(failure.why)}`,
      ),
      state.failures.length,
    ),
    ...block(
      'open questions',
      state.open_questions.map((question) => `  - ${line(question)}`),
      state.open_questions.length,
    ),
    `sources seen ${coverage.source_ids_seen.length}, chunks seen ${coverage.chunk_ids_seen.length}, chunks cited ${coverage.chunk_ids_cited.length}`,
  ];
}

/** What a run has recorded: status, objective, counters, latest snapshot and the size of its state. */
function runLines(state: RunState, latest: SnapshotRecord | null): string[] {
  const verified = state.claims.filter((claim) => claim.status === 'verified').length;
  const snapshot =
    latest === null
      ? 'none yet'
      : `${latest.snapshot.snapshot_id} #${latest.snapshot.sequence} ${validationText(latest.snapshot)}, ${latest.snapshot.created_at}`;
  return [
    `run ${state.run_id}  (user ${state.user_id}, agent ${state.agent_id}, tenant ${state.tenant_id}; last session ${state.session_id})`,
    `status: ${state.status}`,
    ...(state.status === 'stopped'
      ? [
          `  reason: ${state.stop_reason ?? 'none recorded'}`,
          '  commits to it fail with RUN_STOPPED until `engram runs resume`',
        ]
      : []),
    `objective: ${state.objective === null ? '(not recorded)' : line(state.objective)}`,
    `done definition: ${line(doneText(state.done_definition))}`,
    `since the last snapshot: ${plural(state.counted_since, 'counted event')} (PLAN_DONE, ACT_DONE, OBSERVE_DONE), ${plural(state.steps_since, 'step')} (STEP_DONE)`,
    `latest snapshot: ${snapshot}`,
    `claims ${verified}/${state.claims.length} verified, conflicts ${state.conflicts.length}, failures ${state.failures.length}, open questions ${state.open_questions.length}`,
    `sources seen ${state.source_ids_seen.length}, chunks seen ${state.chunk_ids_seen.length}; state v${state.version}, updated ${state.updated_at}`,
  ];
}

function snapshotsList(snapshots: Command): void {
  snapshots
    .command('list')
    .description("a user's compaction snapshots, oldest first")
    .requiredOption('--user <id>', 'user id')
    .option('--agent <id>', 'agent id')
    .option('--run <id>', 'only this run')
    .option('--tenant <id>', 'tenant id', 'default')
    .option('--limit <n>', 'page size (default 100)', positiveInteger('limit'))
    .option('--cursor <snapshot_id>', 'continue after this snapshot')
    .option('--desc', 'newest first')
    .action(
      (flags: {
        user: string;
        agent?: string;
        run?: string;
        tenant: string;
        limit?: number;
        cursor?: string;
        desc?: boolean;
      }) =>
        withEngram(async (engram, global) => {
          const records = await engram.runs.snapshots({
            scope: {
              tenant_id: flags.tenant,
              user_id: flags.user,
              ...optional('agent_id', flags.agent),
              ...optional('run_id', flags.run),
            },
            ...(flags.desc === true ? { order: 'desc' as const } : {}),
            ...optional('limit', flags.limit),
            ...optional('cursor', flags.cursor),
          });
          if (global.json === true) printJson(records);
          else printLines(records.length === 0 ? ['no snapshots'] : records.map(snapshotLine));
        }),
    );
}

function snapshotsShow(snapshots: Command): void {
  snapshots
    .command('show <snapshot_id>')
    .description('one snapshot: its gate checks, claims with their evidence, conflicts, failures and open questions')
    .option('--tenant <id>', 'tenant id', 'default')
    .action((snapshotId: string, flags: { tenant: string }) =>
      withEngram(async (engram, global) => {
        const record = await engram.runs.snapshot(snapshotId, flags.tenant);
        if (global.json === true) printJson(record);
        else printLines(snapshotBlock(record));
      }),
    );
}

function snapshotsRender(snapshots: Command): void {
  snapshots
    .command('render <snapshot_id>')
    .description("the snapshot's narrative Markdown, exactly as the library renders it (--json does not apply)")
    .option('--tenant <id>', 'tenant id', 'default')
    .action((snapshotId: string, flags: { tenant: string }) =>
      withEngram(async (engram) => {
        process.stdout.write(await engram.runs.narrative(snapshotId, flags.tenant));
      }),
    );
}

function runsShow(runs: Command): void {
  runFlags(
    runs
      .command('show')
      .description('what a run has recorded: status, objective, compaction counters, latest snapshot'),
  ).action((flags: RunFlags) =>
    withEngram(async (engram, global) => {
      const state = await engram.runs.get(runScopeOf(flags));
      if (global.json === true) return printJson(state);
      if (state === null)
        return printLines([`run ${flags.run} has recorded nothing yet (no run payload and no markers)`]);
      const latest =
        state.latest_snapshot_id === null ? null : await engram.runs.snapshot(state.latest_snapshot_id, flags.tenant);
      printLines(runLines(state, latest));
    }),
  );
}

function runsResume(runs: Command): void {
  runFlags(
    runs
      .command('resume')
      .description('resume a run that a failed snapshot stopped; its next commit is accepted again'),
  )
    .option('--by <name>', 'who resumes it')
    .option('--note <text>', 'why')
    .action((flags: RunFlags & { by?: string; note?: string }) =>
      withEngram(async (engram, global) => {
        const scope = runScopeOf(flags);
        const before = await engram.runs.get(scope);
        const state = await engram.runs.resume({ scope, ...optional('by', flags.by), ...optional('note', flags.note) });
        if (global.json === true) return printJson(state);
        if (before?.status !== 'stopped') return printLines([`run ${state.run_id}: already active, nothing to resume`]);
        const latest =
          state.latest_snapshot_id === null ? 'none yet' : `${state.latest_snapshot_id} #${state.sequence}`;
        printLines([
          `run ${state.run_id}: resumed, its commits are accepted again (state v${state.version})`,
          `latest snapshot: ${latest}; the next snapshot must keep its objective and done definition`,
        ]);
      }),
    );
}

/** Adds `snapshots list|show|render` and `runs show|resume` to the program. */
export function registerRunCommands(program: Command): void {
  const snapshots = program.command('snapshots').description('compaction snapshots of long runs');
  snapshotsList(snapshots);
  snapshotsShow(snapshots);
  snapshotsRender(snapshots);
  const runs = program.command('runs').description("a run's recorded state, and resuming a stopped run");
  runsShow(runs);
  runsResume(runs);
}
