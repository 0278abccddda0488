// What an erase changes in the copies it keeps. A stored context build that quoted erased data is
// redacted: a packet cites everything it quotes by id (a quote by its event, a fact by its item, an
// insight by its id), so every entry standing for an erased id is cut out, erased ids are taken out
// of the lists that name them, and the build records when and why. An item that stays keeps only
// its sources that stay.

import type { EvidenceRef } from '../../spec/items.js';
import type { BuildRedaction, ContextBuild } from '../../spec/storage.js';

/**
 * Ids a packet cites that an erase can remove: events, items and insights (ULIDs after their
 * prefix). Also read by PostgreSQL's regular expressions, which match it without the word bounds.
 */
export const CITED_ID_PATTERN = '(?:evt|mem|ins)_[0-9A-HJKMNP-TV-Z]{26}';
const CITED_ID = new RegExp(`\\b${CITED_ID_PATTERN}\\b`, 'g');

/** What a blanked text field says instead of what it quoted. */
export const REDACTED_TEXT = '[redacted: it quoted erased data]';

/**
 * The ids of events, items and insights a text names, in order.
 *
 * @example
 * citedIds('key_quotes:evt_01J0000000000000000000000A: over_budget') // ['evt_01J0000000000000000000000A']
 */
export function citedIds(text: string): string[] {
  return text.match(CITED_ID) ?? [];
}

/** True when the text cites one of the ids. */
function cites(text: string, erased: ReadonlySet<string>): boolean {
  return citedIds(text).some((id) => erased.has(id));
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * True for a list entry that stands for erased data: a string citing an erased id (an explain line),
 * or an object one of whose own text fields does (a quote by its evidence id, a fact by its item id,
 * a citation). An entry that only lists an erased id among others (a fact's sources) stays, without it.
 */
function quotesErased(entry: unknown, erased: ReadonlySet<string>): boolean {
  if (typeof entry === 'string') return cites(entry, erased);
  return isRecord(entry) && Object.values(entry).some((field) => typeof field === 'string' && cites(field, erased));
}

/**
 * The value with every list entry that stands for erased data removed, and any other string that
 * cites an erased id blanked; `counter.removed` grows by what was taken.
 */
function redactValue(value: unknown, erased: ReadonlySet<string>, counter: { removed: number }): unknown {
  if (Array.isArray(value)) {
    const kept = value.filter((entry) => !quotesErased(entry, erased));
    counter.removed += value.length - kept.length;
    return kept.map((entry) => redactValue(entry, erased, counter));
  }
  if (typeof value === 'string') {
    if (!cites(value, erased)) return value;
    counter.removed += 1;
    return REDACTED_TEXT;
  }
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) out[key] = redactValue(entry, erased, counter);
  return out;
}

/**
 * The build without what it cited of `erased` (event, item and insight ids), with a redaction
 * recorded; null when it cites none of them (nothing to change).
 *
 * @example
 * const redacted = redactBuild(build, new Set(['mem_01J…']), { at: '2026-06-01T10:00:00.000Z', erased: 'user' });
 * redacted?.redactions?.at(-1)?.removed_entries // 3
 */
export function redactBuild(
  build: ContextBuild,
  erased: ReadonlySet<string>,
  why: Pick<BuildRedaction, 'at' | 'erased'>,
): ContextBuild | null {
  const selected = build.selected.filter((id) => !erased.has(id));
  const counter = { removed: 0 };
  const packet = redactValue(build.packet, erased, counter) as ContextBuild['packet'];
  if (counter.removed === 0 && selected.length === build.selected.length) return null;
  const redaction: BuildRedaction = {
    at: why.at,
    erased: why.erased,
    removed_entries: counter.removed,
    removed_ids: build.selected.length - selected.length,
  };
  return { ...build, selected, packet, redactions: [...(build.redactions ?? []), redaction] };
}

/**
 * An item's sources without the erased events (and evidence pointing at them); null when it cites
 * none of them.
 *
 * @example
 * withoutErasedSources({ source_event_ids: ['evt_a', 'evt_b'], evidence_refs: [] }, new Set(['evt_a']))
 * // { source_event_ids: ['evt_b'], evidence_refs: [] }
 */
export function withoutErasedSources(
  item: { source_event_ids: readonly string[]; evidence_refs: readonly EvidenceRef[] },
  erased: ReadonlySet<string>,
): { source_event_ids: string[]; evidence_refs: EvidenceRef[] } | null {
  const sources = item.source_event_ids.filter((id) => !erased.has(id));
  const evidence = item.evidence_refs.filter((ref) => !(ref.kind === 'event' && erased.has(ref.ref)));
  if (sources.length === item.source_event_ids.length && evidence.length === item.evidence_refs.length) return null;
  return { source_event_ids: sources, evidence_refs: evidence };
}
