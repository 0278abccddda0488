// CLI commands over reflection and its review queue: reflect over a run, list, show, approve
// (optionally edited) and reject what it proposed (insights are insight-commands.ts).
// Requests go to the library as objects; it validates them, and its typed errors are printed as is.

import { Option, type Command } from 'commander';

import { describeItem } from '../index.js';
import type {
  ApproveRequest,
  CandidateKind,
  CandidateStatus,
  CandidateTarget,
  DecisionResult,
  ReflectResult,
  ReviewCandidate,
} from '../index.js';
import { printJson, printLines } from './output.js';
import { list, positiveInteger, withEngram } from './runner.js';
import { jsonFlag, optional, runScope, scoped, scopeOf, oneLine, diffLines, type ScopeFlags } from './flags.js';

function gist(candidate: ReviewCandidate): string {
  const { payload } = candidate;
  const text = [
    payload['claim'],
    payload['summary'],
    payload['question'],
    payload['statement'],
    payload['detail'],
  ].find((value) => typeof value === 'string');
  return oneLine((text as string | undefined) ?? JSON.stringify(payload));
}

/** What approving would write, in a few words. */
function targetText(target: CandidateTarget): string {
  switch (target.write) {
    case 'item':
      return `→ ${target.key}${target.scope_level === undefined ? '' : ` (${target.scope_level} level)`}`;
    case 'retract':
      return `→ retract ${target.key}`;
    case 'insight':
      return `→ ${target.insight_type} insight${target.expires_at === null ? '' : ` (expires ${target.expires_at})`}`;
    case 'resolve':
      return target.keep === null
        ? '→ settle with --edit {"write":"resolve","keep":"mem_…"} (null retracts them all)'
        : `→ keep ${target.keep}, retract the others`;
    case 'none':
      return '→ nothing until approved with --edit';
  }
}

function kindOf(candidate: ReviewCandidate): string {
  return candidate.memory_type === null ? candidate.kind : `${candidate.kind}/${candidate.memory_type}`;
}

/** ` [private]` for a candidate drawn from private events (it writes at its user's level only). */
function badge(candidate: ReviewCandidate): string {
  return candidate.sensitivity === 'normal' ? '' : `  [${candidate.sensitivity}]`;
}

function candidateLine(candidate: ReviewCandidate): string {
  return `${candidate.id}  ${kindOf(candidate).padEnd(18)} conf ${candidate.confidence}  ${candidate.status}${badge(candidate)}\n    ${gist(candidate)}  ${targetText(candidate.target)}`;
}

function decisionLines(candidate: ReviewCandidate): string[] {
  const decision = candidate.decision;
  if (decision === null) return [];
  const { written } = decision;
  const wrote = [
    ...written.item_ids,
    ...written.insight_ids,
    ...written.retracted_item_ids.map((id) => `retracted ${id}`),
  ];
  return [
    `    decided: ${candidate.status} by ${decision.by} at ${decision.at}${decision.reason === null ? '' : ` — ${oneLine(decision.reason)}`}`,
    ...(decision.edit === null ? [] : [`    edited to: ${targetText(decision.edit)}`]),
    ...(wrote.length === 0 ? [] : [`    wrote: ${wrote.join(', ')}`]),
  ];
}

/** One block per candidate: what it says, what approving writes, its evidence and salience, its decision. */
function candidateBlock(candidate: ReviewCandidate): string {
  const { target, salience } = candidate;
  const value =
    target.write === 'item'
      ? `    writes ${target.type} ${target.key} = ${oneLine(describeItem(target), 200)}`
      : `    writes ${targetText(target).slice(2)}`;
  return [
    `${candidate.id}  ${kindOf(candidate)}  ${candidate.status}  conf ${candidate.confidence}  (${candidate.source}, ${candidate.trace_id}, run ${candidate.run_id})${badge(candidate)}`,
    `    ${gist(candidate)}`,
    value,
    `    evidence: ${candidate.source_event_ids.join(', ') || '–'}`,
    ...(candidate.item_ids.length === 0 ? [] : [`    about: ${candidate.item_ids.join(', ')}`]),
    ...(candidate.open_loop_id === null ? [] : [`    open question: ${candidate.open_loop_id}`]),
    `    salience: consequence ${salience.consequence} · emotional charge ${salience.emotional_charge} · reusability ${salience.reusability}`,
    ...decisionLines(candidate),
  ].join('\n');
}

function reflectLines(result: ReflectResult): string[] {
  const head = `${result.trace_id}  ${result.source}  ${result.status}`;
  if (result.failure !== null) {
    const { failure } = result;
    return [
      `${head}: the ${failure.stage} answer was unusable (${failure.reason} after ${failure.attempts} attempts); memory is untouched`,
      ...failure.issues
        .slice(0, 5)
        .map((issue) => `  ${issue.field || '(answer)'}: ${issue.message} [rule: ${issue.rule}]`),
    ];
  }
  const count = result.candidates.length;
  return [
    `${head}: ${count === 0 ? 'nothing to propose' : `${count} candidate${count === 1 ? '' : 's'}`}`,
    ...result.candidates.map(candidateLine),
  ];
}

function decisionResultLines(result: DecisionResult): string[] {
  const { candidate } = result;
  const retracted = candidate.decision?.written.retracted_item_ids ?? [];
  const inDiffs = new Set(result.items.map((diff) => diff.item_id));
  return [
    `${candidate.id}: ${candidate.status} by ${candidate.decision?.by ?? '?'}`,
    ...diffLines(result.items),
    ...result.insight_ids.map((id) => `insight    ${id}`),
    ...retracted.filter((id) => !inDiffs.has(id)).map((id) => `retracted  ${id}`),
    ...(result.items.length + result.insight_ids.length + retracted.length === 0 && candidate.status !== 'rejected'
      ? ['nothing changed']
      : []),
  ];
}

function registerReflect(program: Command): void {
  scoped(
    program
      .command('reflect')
      .description('reflect over one run (its events are the trace) and queue what it proposes for review'),
    true,
  )
    .requiredOption('--run <id>', 'run id: the trace')
    .option('--session <id>', 'session whose open loops get contradiction questions (default the run’s last)')
    .addOption(
      new Option('--use <source>', 'auto: the configured LLM if any, else rules').choices(['auto', 'rules', 'llm']),
    )
    .action((flags: ScopeFlags & { agent: string; run: string; use?: 'auto' | 'rules' | 'llm' }) =>
      withEngram(async (engram, global) => {
        const result = await engram.reflect({ scope: runScope(flags), ...optional('use', flags.use) });
        if (global.json === true) printJson(result);
        else printLines(reflectLines(result));
      }),
    );
}

function registerReview(program: Command): void {
  const review = program.command('review').description('the review queue: candidates that reflection proposed');
  reviewList(review);
  reviewShow(review);
  reviewApprove(review);
  reviewReject(review);
}

function reviewList(review: Command): void {
  scoped(review.command('list').description('candidates of a user, oldest first (pending ones by default)'), false)
    .option('--session <id>', 'only this session')
    .option('--run <id>', 'only this run')
    .option('--status <list>', 'comma-separated: pending,approved,edited,rejected', list, ['pending'])
    .option('--kind <list>', 'comma-separated: episode,memory,contradiction,doctrine', list)
    .option('--trace <trace_id>', 'only this reflection')
    .option('--limit <n>', 'page size', positiveInteger('limit'))
    .option('--cursor <candidate_id>', 'continue after this candidate')
    .action(
      (flags: ScopeFlags & { status: string[]; kind?: string[]; trace?: string; limit?: number; cursor?: string }) =>
        withEngram(async (engram, global) => {
          const candidates = await engram.review.list({
            scope: scopeOf(flags),
            status: flags.status as CandidateStatus[],
            ...optional('kind', flags.kind as CandidateKind[] | undefined),
            ...optional('trace_id', flags.trace),
            ...optional('limit', flags.limit),
            ...optional('cursor', flags.cursor),
          });
          if (global.json === true) printJson(candidates);
          else printLines(candidates.length === 0 ? ['no candidates'] : candidates.map(candidateBlock));
        }),
    );
}

function reviewShow(review: Command): void {
  review
    .command('show <candidate_id>')
    .description('one candidate in full: its proposal, target and decision')
    .option('--tenant <id>', 'tenant id', 'default')
    .action((candidateId: string, flags: { tenant: string }) =>
      withEngram(async (engram, global) => {
        const candidate = await engram.review.get(candidateId, flags.tenant);
        if (global.json === true) return printJson(candidate);
        const indent = (value: unknown) => JSON.stringify(value, null, 2).replace(/\n/g, '\n    ');
        printLines([
          candidateBlock(candidate),
          `    proposal: ${indent(candidate.payload)}`,
          `    target: ${indent(candidate.target)}`,
          `    created ${candidate.created_at} in session ${candidate.session_id}`,
        ]);
      }),
    );
}

function reviewApprove(review: Command): void {
  review
    .command('approve <candidate_id>')
    .description('approve a pending candidate: write its target (or the edit) through the normal merge')
    .option('--tenant <id>', 'tenant id', 'default')
    .option('--by <name>', 'who approves (default user)')
    .option(
      '--edit <json>',
      'what to write instead: {"write":"item",…}, {"write":"retract",…}, {"write":"insight",…} or {"write":"resolve","keep":…}',
    )
    .option('--edit-file <path>', 'the edit from a JSON file (- reads stdin)')
    .action((candidateId: string, flags: { tenant: string; by?: string; edit?: string; editFile?: string }) =>
      withEngram(async (engram, global) => {
        const edit = await jsonFlag('edit', flags.edit, flags.editFile);
        const result = await engram.review.approve({
          tenant_id: flags.tenant,
          candidate_id: candidateId,
          ...optional('by', flags.by),
          ...optional('edit', edit as ApproveRequest['edit']),
        });
        if (global.json === true) printJson(result);
        else printLines(decisionResultLines(result));
      }),
    );
}

function reviewReject(review: Command): void {
  review
    .command('reject <candidate_id>')
    .description('reject a pending candidate; it never becomes memory')
    .option('--tenant <id>', 'tenant id', 'default')
    .option('--reason <text>', 'why (required)')
    .option('--by <name>', 'who rejects (default user)')
    .action((candidateId: string, flags: { tenant: string; reason?: string; by?: string }) =>
      withEngram(async (engram, global) => {
        // The reason is checked by the library, so a missing one is a typed VALIDATION_FAILED on `reason`.
        const request = {
          tenant_id: flags.tenant,
          candidate_id: candidateId,
          ...optional('by', flags.by),
          ...optional('reason', flags.reason),
        };
        const result = await engram.review.reject(request as typeof request & { reason: string });
        if (global.json === true) printJson(result);
        else printLines(decisionResultLines(result));
      }),
    );
}

export function registerReviewCommands(program: Command): void {
  registerReflect(program);
  registerReview(program);
}
