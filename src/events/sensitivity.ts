// The sensitivity rules of the episodic log, in one place: what may be indexed, summarised,
// extracted or placed in a packet; which fields of a secret event any output may show; and the
// level at which memory derived from private events may be stored.

import { ValidationError } from '../spec/errors.js';
import type { EventRecord, Sensitivity } from '../spec/event.js';
import type { ScopeLevel } from '../spec/items.js';

/** Sensitivities that never reach a packet, a summary, an index or a provider. */
export const NEVER_SHARED: readonly Sensitivity[] = ['secret'];

/**
 * True when an event may feed derived memory (summary, quotes, packets, extraction).
 *
 * @example
 * isShareable({ ...event, sensitivity: 'secret' }) // false
 */
export function isShareable(event: Pick<EventRecord, 'sensitivity'>): boolean {
  return !NEVER_SHARED.includes(event.sensitivity);
}

/**
 * The fields of a secret event that any output (event reads, export) shows: where it sits in the
 * log (ids, scope, turn), what kind of record it is, and when: identifiers and times, no words
 * about it. Everything else (content, speaker or tool name, tags, metadata with a tool's call id,
 * snapshot reference, resonance links) may describe the secret and is withheld.
 */
export const SECRET_SHOWN_FIELDS = [
  'id',
  'namespace',
  'thread_id',
  'tenant_id',
  'user_id',
  'agent_id',
  'session_id',
  'run_id',
  'turn_id',
  'kind',
  'marker',
  'role',
  'content_type',
  'sensitivity',
  'embeddable',
  'embedding_status',
  'ts',
  'created_at',
  'recorded_at',
  'expires_at',
] as const satisfies ReadonlyArray<keyof EventRecord>;

type WithheldField = Exclude<keyof EventRecord, (typeof SECRET_SHOWN_FIELDS)[number]>;

/** What the withheld fields read as: a placeholder for the content, empty for the rest (fresh each time). */
function withheldFields(): { [field in WithheldField]: EventRecord[field] } {
  return {
    content: '[secret content withheld]',
    speaker: null,
    tags: [],
    origin_metadata: {},
    snapshot_ref: null,
    resonance_links: [],
  };
}

/**
 * The event as any output may show it: unchanged unless secret; a secret event keeps only
 * SECRET_SHOWN_FIELDS (never embeddable) and every other field withheld.
 *
 * @example
 * shownEvent({ ...event, sensitivity: 'secret', speaker: 'vault_lookup' }).speaker // null
 */
export function shownEvent(event: EventRecord): EventRecord {
  if (isShareable(event)) return event;
  const shown = Object.fromEntries(SECRET_SHOWN_FIELDS.map((field) => [field, event[field]])) as Pick<
    EventRecord,
    (typeof SECRET_SHOWN_FIELDS)[number]
  >;
  return { ...shown, ...withheldFields(), embeddable: false };
}

const STRENGTH: Readonly<Record<Sensitivity, number>> = { normal: 0, private: 1, secret: 2 };

/**
 * The sensitivity of something derived from events: the strongest of theirs (`normal` for none).
 *
 * @example
 * strongestSensitivity(['normal', 'private']) // 'private'
 */
export function strongestSensitivity(values: Iterable<Sensitivity>): Sensitivity {
  let strongest: Sensitivity = 'normal';
  for (const value of values) if (STRENGTH[value] > STRENGTH[strongest]) strongest = value;
  return strongest;
}

/**
 * The level an item derived from evidence of this sensitivity is stored at: private evidence never
 * leaves its user, so what it supports stays at the user's level whatever its type's default.
 *
 * @example
 * confinedLevel('agent', 'private') // 'user'
 */
export function confinedLevel(level: ScopeLevel, sensitivity: Sensitivity): ScopeLevel {
  return sensitivity === 'normal' ? level : 'user';
}

/**
 * Refuses an explicit request to share at the agent or tenant level what private (or secret)
 * evidence supports; `field` names the request's level.
 *
 * @example
 * assertLevelAllowed('agent', 'private', 'edit.scope_level') // throws VALIDATION_FAILED (private_evidence)
 */
export function assertLevelAllowed(level: ScopeLevel | undefined, sensitivity: Sensitivity, field: string): void {
  if (sensitivity === 'secret')
    throw ValidationError.of(field, 'secret_evidence', 'nothing derived from a secret event becomes memory');
  if (level === undefined || level === 'user' || sensitivity === 'normal') return;
  throw ValidationError.of(
    field,
    'private_evidence',
    `must be "user": its evidence includes ${sensitivity} events, which never leave their user (a ${level}-level item would show them to other users)`,
  );
}
