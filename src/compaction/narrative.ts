// The narrative of a snapshot (spec E): Markdown rendered from the snapshot alone by a fixed
// template, never by a model. No clock, no locale, stable order and escaped user text, so the same
// snapshot always renders to the same bytes. The snapshot stays canonical; this is for reading.

import type { Claim, CompactionSnapshot, EvidencePointer } from '../spec/compaction.js';
import { canonicalJson } from './canonical-json.js';

/** The eight section headings, in order (the spec's suggested narrative sections). */
export const NARRATIVE_HEADINGS = [
  '## 1. Objective, budgets and provenance',
  '## 2. What changed since the last snapshot',
  '## 3. Verified claims',
  '## 4. Conflicts',
  '## 5. Failures',
  '## 6. Open questions',
  '## 7. Next actions',
  '## 8. Manifest references',
] as const;

const NONE = 'None.';
const MAX_ACTIONS = 3;
const ACTION_TEXT_CHARS = 160;

/**
 * The snapshot's narrative Markdown: a title, then the eight NARRATIVE_HEADINGS sections in order.
 * User text is put on one line and its Markdown-significant characters are escaped, so it can
 * never open a heading, a list or a link. Next actions (at most three) follow fixed rules: fix the
 * failed checks, resolve the first conflict, answer the first open question, gather evidence for
 * the first candidate claim — `None.` when none applies.
 *
 * @example
 * renderNarrative(snapshot).startsWith('# Run ') // true; the same snapshot gives the same bytes
 */
export function renderNarrative(snapshot: CompactionSnapshot): string {
  const sections = [
    objectiveSection(snapshot),
    changesSection(snapshot),
    claimsSection(snapshot.state.claims.filter((claim) => claim.status === 'verified')),
    conflictsSection(snapshot),
    listOrNone(
      snapshot.state.failures.map(
        (failure) =>
          `- **${inline(failure.failure_id)}** (${inline(failure.category)}) at ${inline(failure.where)}: ${inline(failure.why)}`,
      ),
    ),
    listOrNone(snapshot.state.open_questions.map((question) => `- ${inline(question)}`)),
    listOrNone(nextActions(snapshot).map((action, index) => `${index + 1}. ${action}`)),
    manifestSection(snapshot),
  ];
  const title = `# Run ${inline(snapshot.run_id)}: compaction snapshot ${snapshot.sequence}`;
  const body = sections.map((lines, index) => [NARRATIVE_HEADINGS[index], '', ...lines].join('\n'));
  return `${[title, '', ...body.flatMap((section) => [section, ''])].join('\n').trimEnd()}\n`;
}

function objectiveSection(snapshot: CompactionSnapshot): string[] {
  const done = snapshot.done_definition;
  const counts = snapshot.counts;
  return [
    `- Objective: ${inline(snapshot.objective)}`,
    `- Done definition: ${inline(typeof done === 'string' ? done : canonicalJson(done))}`,
    `- Budget used since the last snapshot: ${counts.counted_events_since_last_compaction} counted events (PLAN\\_DONE, ACT\\_DONE, OBSERVE\\_DONE), ${counts.steps_since_last_compaction} steps`,
    `- Provenance mode: ${inline(snapshot.provenance_mode)}`,
    `- Policy snapshot: ${snapshot.policy_snapshot_ref === null ? 'none' : inline(snapshot.policy_snapshot_ref)}`,
  ];
}

function changesSection(snapshot: CompactionSnapshot): string[] {
  const { state, validation } = snapshot;
  const status = (name: Claim['status']) => state.claims.filter((claim) => claim.status === name).length;
  const coverage = state.source_coverage;
  const failed = validation.checks.filter((check) => check.status === 'FAIL').map((check) => inline(check.name));
  const after = snapshot.sequence <= 1 ? 'the first of the run' : `after sequence ${snapshot.sequence - 1}`;
  return [
    `- Snapshot ${inline(snapshot.snapshot_id)}, sequence ${snapshot.sequence} (${after}), taken at ${inline(snapshot.created_at)}`,
    `- Claims: ${status('verified')} verified, ${status('candidate')} candidate, ${status('retracted')} retracted`,
    `- Conflicts: ${state.conflicts.length}; failures: ${state.failures.length}; open questions: ${state.open_questions.length}`,
    `- Sources seen: ${coverage.source_ids_seen.length}; chunks seen: ${coverage.chunk_ids_seen.length}; chunks cited: ${coverage.chunk_ids_cited.length}`,
    `- Context builds since the last snapshot: ${snapshot.latest_context_manifest_ids.length}`,
    `- Validation: ${validation.status} (action ${validation.failure_action_taken})${failed.length === 0 ? '' : `; failed checks: ${failed.join(', ')}`}`,
  ];
}

function claimsSection(claims: readonly Claim[]): string[] {
  return listOrNone(
    claims.flatMap((claim) => [
      `- **${inline(claim.claim_id)}**: ${inline(claim.statement)}`,
      ...claim.evidence_refs.map((pointer) => `  - ${pointerText(pointer)}`),
    ]),
  );
}

function conflictsSection(snapshot: CompactionSnapshot): string[] {
  const sides = (refs: readonly EvidencePointer[]) =>
    refs.length === 0 ? 'no evidence' : refs.map(pointerText).join('; ');
  return listOrNone(
    snapshot.state.conflicts.flatMap((conflict) => [
      `- **${inline(conflict.conflict_id)}**: ${inline(conflict.description)}`,
      `  - Side A: ${sides(conflict.side_a_refs)}`,
      `  - Side B: ${sides(conflict.side_b_refs)}`,
    ]),
  );
}

function manifestSection(snapshot: CompactionSnapshot): string[] {
  const builds = snapshot.latest_context_manifest_ids;
  return [
    `- Context builds: ${builds.length === 0 ? 'none' : builds.map(inline).join(', ')}`,
    `- Retrieval diagnostics: ${inline(canonicalJson(snapshot.retrieval_diagnostics))}`,
    `- Snapshot: ${inline(snapshot.snapshot_id)} (run ${inline(snapshot.run_id)})`,
  ];
}

/** At most three actions, from the snapshot alone, in a fixed order of priority. */
function nextActions(snapshot: CompactionSnapshot): string[] {
  const { state, validation } = snapshot;
  const actions: string[] = [];
  const failed = validation.checks
    .filter((check) => check.status === 'FAIL' && check.name !== 'retry')
    .map((check) => inline(check.name));
  if (failed.length > 0) actions.push(`Fix what the failed compaction checks name: ${failed.join(', ')}`);
  const conflict = state.conflicts[0];
  if (conflict !== undefined)
    actions.push(`Resolve conflict **${inline(conflict.conflict_id)}**: ${inline(shorten(conflict.description))}`);
  const question = state.open_questions[0];
  if (question !== undefined) actions.push(`Answer the open question: ${inline(shorten(question))}`);
  const candidate = state.claims.find((claim) => claim.status === 'candidate');
  if (candidate !== undefined)
    actions.push(
      `Gather evidence for candidate claim **${inline(candidate.claim_id)}**: ${inline(shorten(candidate.statement))}`,
    );
  return actions.slice(0, MAX_ACTIONS);
}

function pointerText(pointer: EvidencePointer): string {
  return `${inline(pointer.evidence_id)} (corpus ${inline(pointer.corpus_id)}, chunk ${inline(pointer.chunk_id)}, characters ${pointer.span[0]} to ${pointer.span[1]})`;
}

function listOrNone(lines: string[]): string[] {
  return lines.length === 0 ? [NONE] : lines;
}

// Cut by code points, so a surrogate pair is never split.
function shorten(text: string): string {
  const points = Array.from(text);
  return points.length > ACTION_TEXT_CHARS ? `${points.slice(0, ACTION_TEXT_CHARS).join('')}…` : text;
}

/**
 * User text made safe for one line of Markdown: line breaks and other control characters become
 * spaces, and the characters that could start emphasis, code, links, HTML, tables or entities are
 * backslash-escaped (CommonMark escapes any ASCII punctuation this way).
 *
 * @example
 * inline('*bold* <b>\nnext') // '\\*bold\\* \\<b\\> next'
 */
export function inline(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- control characters are what this replaces
      .replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]/g, ' ')
      .replace(/[\\`*_[\]<>|~&#!]/g, (char) => `\\${char}`)
  );
}
