// Working memory: the structured state of one session, changed only by patches that carry the
// version they were made against. The new state is validated before anything is written.

import { ConflictError, ValidationError } from '../spec/errors.js';
import { check, schemas } from '../spec/schema-check.js';
import { issuesUnder, underPath } from '../spec/validators.js';
import {
  emptyWorkingState,
  type StatePatch,
  type WorkingState,
  type WorkingStateListField,
} from '../spec/working-state.js';
import { applyMergePatch } from './merge-patch.js';

const LIST_FIELDS: readonly WorkingStateListField[] = ['plan', 'tool_evidence', 'decisions', 'risks', 'open_loops'];
const EVIDENCED_FIELDS = new Set<WorkingStateListField>(['decisions', 'open_loops']);

/**
 * The state after `patch`, with `state_version` one higher. Appended decisions and open loops
 * without an `evidence_id` get `evidenceId` (the patch's own event). Throws ConflictError on a
 * stale version and ValidationError when the result breaks the schema, their fields named under
 * `path`, where the patch sits in the caller's request.
 *
 * @example
 * applyStatePatch(emptyWorkingState(), { expected_version: 0, set: { goal: 'Ship v1' } }, 'evt_…').state_version // 1
 */
export function applyStatePatch(
  current: WorkingState | null,
  patch: StatePatch,
  evidenceId: string,
  path = 'state_patch',
): WorkingState {
  const base = current ?? emptyWorkingState();
  if (patch.expected_version !== base.state_version) {
    throw ConflictError.ofVersion(
      underPath(path, 'expected_version'),
      patch.expected_version,
      base.state_version,
      'caller',
    );
  }
  const { state_version: version, ...fields } = base;
  const merged = applyMergePatch(fields, patch.set ?? {}) as Record<string, unknown>;
  for (const field of LIST_FIELDS) {
    const items = patch.append?.[field];
    if (items === undefined) continue;
    const existing = Array.isArray(merged[field]) ? (merged[field] as unknown[]) : [];
    const added = EVIDENCED_FIELDS.has(field) ? items.map((item) => withEvidence(item, evidenceId)) : items;
    merged[field] = [...existing, ...added];
  }
  const next = { ...emptyWorkingState(), ...merged, state_version: version + 1 };
  const issues = check(schemas.workingState.$id, next);
  if (issues.length > 0) throw new ValidationError(issuesUnder(path, issues));
  return next as WorkingState;
}

function withEvidence(item: unknown, evidenceId: string): unknown {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
  const record = item as Record<string, unknown>;
  return record['evidence_id'] === undefined ? { ...record, evidence_id: evidenceId } : record;
}
