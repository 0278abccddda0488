// The evidence a state patch cites: an `evidence_id` that is an event id must name an event of the
// same user in the caller's tenant, or packets would cite (and date) another user's or tenant's
// event. Ids the session's state already cites are not checked again; other strings stay opaque
// references.

import { ValidationError } from '../spec/errors.js';
import type { Scope } from '../spec/scope.js';
import type { StorageAdapter } from '../spec/storage.js';
import type { StatePatch, WorkingState } from '../spec/working-state.js';
import { underPath } from '../spec/validators.js';

const LIST_FIELDS = ['plan', 'tool_evidence', 'decisions', 'risks', 'open_loops'] as const;

/** Every event id cited by list entries of a state, as `evidence_id`. */
function citedBy(state: WorkingState | null): Set<string> {
  const cited = new Set<string>();
  for (const field of LIST_FIELDS) {
    for (const entry of state?.[field] ?? []) {
      const id = (entry as { evidence_id?: unknown }).evidence_id;
      if (typeof id === 'string') cited.add(id);
    }
  }
  return cited;
}

/** The event ids a patch's list entries cite, by the field that cites them (`state_patch.append.decisions[0].evidence_id` for a patch at `state_patch`). */
function citedIn(patch: StatePatch, path: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const part of ['set', 'append'] as const) {
    const lists = patch[part] as Record<string, unknown> | undefined;
    for (const field of LIST_FIELDS) {
      const entries = lists?.[field];
      if (!Array.isArray(entries)) continue;
      entries.forEach((entry: unknown, index) => {
        const id =
          typeof entry === 'object' && entry !== null ? (entry as { evidence_id?: unknown }).evidence_id : undefined;
        if (typeof id === 'string' && id.startsWith('evt_') && !fields.has(id))
          fields.set(id, underPath(path, `${part}.${field}[${index}].evidence_id`));
      });
    }
  }
  return fields;
}

/**
 * Refuses a patch citing an event (`evt_…`) that is not the scope's user's in its tenant: one that
 * does not exist, or belongs to another user or tenant, is VALIDATION_FAILED (`known_event`) naming
 * the field (under `path`, where the patch sits in the caller's request), with the same message
 * either way.
 *
 * @example
 * await checkPatchEvidence(storage, scope, patch, session.state, now);
 */
export async function checkPatchEvidence(
  storage: StorageAdapter,
  scope: Scope,
  patch: StatePatch,
  current: WorkingState | null,
  now: string,
  path = 'state_patch',
): Promise<void> {
  const known = citedBy(current);
  const cited = [...citedIn(patch, path)].filter(([id]) => !known.has(id));
  if (cited.length === 0) return;
  const ids = cited.map(([id]) => id);
  const found = await storage.events.list({
    tenant_id: scope.tenant_id,
    ids,
    now,
    include_expired: true,
    limit: ids.length,
  });
  const own = new Set(found.filter((event) => event.user_id === scope.user_id).map((event) => event.id));
  const missing = cited.find(([id]) => !own.has(id));
  if (missing !== undefined) {
    throw ValidationError.of(
      missing[1],
      'known_event',
      `${JSON.stringify(missing[0])} is not an event of user ${JSON.stringify(scope.user_id)}: evidence must name one of the user's own events`,
    );
  }
}
