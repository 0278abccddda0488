// Turns one commit_turn request into episodic event records: roles normalised to the stored names,
// sensitivity and embeddability decided, times set, ids assigned in log order.

import type { EventKind, EventRecord, EventRole, ContentType, Marker, Sensitivity } from '../spec/event.js';
import type { CommitTurnRequest, TurnMarker } from '../spec/requests.js';
import type { Scope } from '../spec/scope.js';
import { newId } from '../util/ids.js';
import { toIso } from '../util/clock.js';

const STORED_ROLE: Record<string, EventRole> = {
  user: 'human',
  human: 'human',
  assistant: 'agent',
  agent: 'agent',
  system: 'system',
};

/** An event before it has an id: the parts a turn supplies. */
interface Draft {
  kind: EventKind;
  role: EventRole;
  content_type: ContentType;
  content: string | Record<string, unknown>;
  sensitivity: Sensitivity;
  embeddable: boolean;
  speaker: string | null;
  tags: string[];
  ts: string;
  expires_at: string | null;
  snapshot_ref: string | null;
  marker: Marker | null;
  resonance_links: EventRecord['resonance_links'];
  origin_metadata: Record<string, unknown>;
}

function drafts(request: CommitTurnRequest, turnTs: string): Draft[] {
  const out: Draft[] = [];
  for (const [index, message] of (request.messages ?? []).entries()) {
    out.push({
      kind: 'message',
      role: STORED_ROLE[message.role] ?? 'human',
      content_type: message.content_type ?? 'text',
      content: message.content,
      sensitivity: message.sensitivity ?? 'normal',
      embeddable: message.embeddable ?? true,
      speaker: message.speaker ?? null,
      tags: message.tags ?? [],
      ts: message.ts === undefined ? turnTs : toIso(message.ts, `messages[${index}].ts`),
      expires_at: message.expires_at == null ? null : toIso(message.expires_at, `messages[${index}].expires_at`),
      snapshot_ref: message.snapshot_ref ?? null,
      marker: null,
      resonance_links: message.resonance_links ?? [],
      origin_metadata: message.metadata ?? {},
    });
  }
  for (const [index, result] of (request.tool_results ?? []).entries()) {
    const tool: Record<string, unknown> = { tool_name: result.tool_name };
    if (result.call_id !== undefined) tool['call_id'] = result.call_id;
    if (result.status !== undefined) tool['status'] = result.status;
    out.push({
      kind: 'tool_result',
      role: 'tool',
      content_type: 'tool_output',
      content: result.content,
      sensitivity: result.sensitivity ?? 'normal',
      embeddable: result.embeddable ?? true,
      speaker: result.tool_name,
      tags: result.tags ?? [],
      ts: result.ts === undefined ? turnTs : toIso(result.ts, `tool_results[${index}].ts`),
      expires_at: result.expires_at == null ? null : toIso(result.expires_at, `tool_results[${index}].expires_at`),
      snapshot_ref: result.snapshot_ref ?? null,
      marker: null,
      resonance_links: [],
      origin_metadata: { ...(result.metadata ?? {}), ...tool },
    });
  }
  for (const [index, entry] of (request.markers ?? []).entries())
    out.push(markerDraft(entry, turnTs, `markers[${index}].ts`));
  return out;
}

function markerDraft(entry: TurnMarker, turnTs: string, field: string): Draft {
  const marker = typeof entry === 'string' ? entry : entry.marker;
  const ts = typeof entry === 'string' || entry.ts === undefined ? turnTs : toIso(entry.ts, field);
  const metadata = typeof entry === 'string' ? {} : (entry.metadata ?? {});
  return {
    kind: 'marker',
    role: 'system',
    content_type: 'observation',
    content: marker,
    sensitivity: 'normal',
    embeddable: false,
    speaker: null,
    tags: [],
    ts,
    expires_at: null,
    snapshot_ref: null,
    marker,
    resonance_links: [],
    origin_metadata: metadata,
  };
}

/** The record of a state patch: the patch itself, with the versions it moved between. */
export function statePatchDraft(content: Record<string, unknown>, turnTs: string): Draft {
  return {
    kind: 'state_patch',
    role: 'agent',
    content_type: 'command',
    content,
    sensitivity: 'normal',
    embeddable: false,
    speaker: null,
    tags: [],
    ts: turnTs,
    expires_at: null,
    snapshot_ref: null,
    marker: null,
    resonance_links: [],
    origin_metadata: {},
  };
}

/**
 * The event records of a turn, in log order (by event time, then messages, tool results, markers).
 * A state patch, when given as `patch`, is placed after the messages and tool results.
 *
 * @example
 * const events = buildTurnEvents(request, scope, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
 */
export function buildTurnEvents(
  request: CommitTurnRequest,
  scope: Scope,
  turnTs: string,
  recordedAt: string,
  patch?: Record<string, unknown>,
): EventRecord[] {
  const all = drafts(request, turnTs);
  if (patch !== undefined) {
    const firstMarker = all.findIndex((draft) => draft.kind === 'marker');
    all.splice(firstMarker === -1 ? all.length : firstMarker, 0, statePatchDraft(patch, turnTs));
  }
  // Stable sort: equal times keep the order above.
  const ordered = all
    .map((draft, index) => ({ draft, index }))
    .sort((a, b) => (a.draft.ts < b.draft.ts ? -1 : a.draft.ts > b.draft.ts ? 1 : a.index - b.index));
  const recordedMs = Date.parse(recordedAt);
  return ordered.map(({ draft }) => ({
    id: newId('evt', recordedMs),
    namespace: `${scope.tenant_id}/${scope.user_id}/${scope.agent_id}`,
    thread_id: scope.session_id,
    speaker: draft.speaker,
    role: draft.role,
    content_type: draft.content_type,
    content: draft.content,
    sensitivity: draft.sensitivity,
    embeddable: draft.embeddable,
    embedding_status: embeddingStatusOf(draft),
    resonance_links: draft.resonance_links,
    tags: draft.tags,
    snapshot_ref: draft.snapshot_ref,
    created_at: draft.ts,
    expires_at: draft.expires_at,
    origin_metadata: draft.origin_metadata,
    tenant_id: scope.tenant_id,
    user_id: scope.user_id,
    agent_id: scope.agent_id,
    session_id: scope.session_id,
    run_id: scope.run_id,
    turn_id: request.turn_id,
    kind: draft.kind,
    marker: draft.marker,
    ts: draft.ts,
    recorded_at: recordedAt,
  }));
}

function embeddingStatusOf(draft: Draft): EventRecord['embedding_status'] {
  if (draft.sensitivity === 'secret' || !draft.embeddable) return 'skipped';
  if (draft.kind === 'marker' || draft.kind === 'state_patch') return 'skipped';
  return 'pending';
}
