// CLI commands over reflection, its review queue and insights: reflect over a run, list, show,
// approve (optionally edited) and reject what it proposed, and add, list, move and promote insights.
// Requests go to the library as objects; it validates them, and its typed errors are printed as is.

import { Option, type Command } from 'commander';

import { describeItem, ValidationError } from '../index.js';
import type {
  ApproveRequest,
  CandidateKind,
  CandidateStatus,
  CandidateTarget,
  DecisionResult,
  InsightRecord,
  InsightType,
  ItemDiff,
  MemoryType,
  ReflectResult,
  ReviewCandidate,
  ValidationState,
} from '../index.js';
import { printJson, printLines } from './output.js';
import { list, positiveInteger, readJson, withEngram } from './runner.js';

interface ScopeFlags {
  tenant: string;
  user: string;
  agent?: string;
  session?: string;
  run?: string;
}

const optional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

function scopeOf(flags: ScopeFlags) {
  return {
    tenant_id: flags.tenant,
    user_id: flags.user,
    ...optional('agent_id', flags.agent),
    ...optional('session_id', flags.session),
    ...optional('run_id', flags.run),
  };
}

function runScope(flags: ScopeFlags & { agent: string; run: string }) {
  return { ...scopeOf(flags), agent_id: flags.agent, run_id: flags.run };
}

function scoped(command: Command, agentRequired: boolean): Command {
  command.requiredOption('--user <id>', 'user id').option('--tenant <id>', 'tenant id', 'default');
  return agentRequired
    ? command.requiredOption('--agent <id>', 'agent id')
    : command.option('--agent <id>', 'agent id');
}

/** A JSON object from an inline flag or a file (`-` reads stdin); at most one of the two. */
async function jsonFlag(name: string, inline: string | undefined, file: string | undefined): Promise<unknown> {
  if (inline !== undefined && file !== undefined)
    throw ValidationError.of(name, 'exclusive', `give --${name} or --${name}-file, not both`);
  if (file !== undefined) return readJson(file);
  if (inline === undefined) return undefined;
  try {
    return JSON.parse(inline) as unknown;
  } catch (error) {
    throw new ValidationError(
      [{ field: name, rule: 'json', message: `--${name} is not valid JSON: ${(error as Error).message}` }],
      { cause: error },
    );
  }
}

function unitNumber(name: string) {
  return (value: string): number => {
    const number = Number(value);
    if (value.trim() === '' || !Number.isFinite(number))
      throw ValidationError.of(name, 'number', `must be a number from 0 to 1, got ${JSON.stringify(value)}`);
    return number;
  };
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
const oneLine = (text: string, max = 160): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

function diffLines(diffs: readonly ItemDiff[]): string[] {
  return diffs.map((diff) => `${diff.action.padEnd(10)} ${diff.key} v${diff.version} (${diff.item_id})`);
}

/** The one line a candidate proposes: the claim, episode summary, contradiction question or doctrine statement. */
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

function registerInsights(program: Command): void {
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
export function registerReviewCommands(program: Command): void {
  registerReflect(program);
  registerReview(program);
  registerInsights(program);
}
