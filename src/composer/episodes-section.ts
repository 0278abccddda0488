// The episodes of a packet (MemoryPacket v1 §4): events and cases the cues activate by time range,
// tags, entities or query (else the most recent few), each with its time range and recency, shown
// whole or with its summary cut short.

import type { MemoryItem } from '../spec/items.js';
import type { Citation, Episode } from '../spec/packet.js';
import type { ComposeRequest } from '../spec/requests.js';
import { isDateTime } from '../spec/date-time.js';
import type { Tokenizer } from '../spec/tokenizer.js';
import { describeValue } from '../items/values.js';
import { isoRange } from '../util/clock.js';
import { itemLine, itemText } from './item-text.js';
import type { Entry } from './packet-builder.js';
import type { PurposePolicy } from './policy.js';
import { lazyForm } from './forms.js';

const DAY_MS = 86_400_000;

/**
 * Episodes read per compose, newest first: enough to activate the policy's top-K by date and cues.
 *
 * @example
 * await storage.items.list({ ...base, types: ['events', 'cases'], order: 'desc', limit: episodeReadLimit(policy) });
 */
export const episodeReadLimit = (policy: PurposePolicy): number => Math.max(20, policy.episodes * 4);

/** An episode's time range: the one its value records (approved reflection episodes), else its date. */
function timeRangeOf(item: MemoryItem): { start: string; end: string } {
  const range = item.value['time_range'];
  if (typeof range === 'object' && range !== null) {
    const { start, end } = range as Record<string, unknown>;
    if (isDateTime(start) && isDateTime(end)) return { start, end };
  }
  const start = dateOf(item);
  return { start, end: start };
}

function dateOf(item: MemoryItem): string {
  const date = item.value['date'];
  return typeof date === 'string' && /^\d{4}-\d{2}-\d{2}/.test(date)
    ? `${date.slice(0, 10)}T00:00:00.000Z`
    : (item.valid_from ?? item.recorded_at);
}

/**
 * Episodes the cues activate (time range, tags, entities, query), else the most recent few, newest
 * first and none dated after `now`.
 *
 * @example
 * const episodes = activateEpisodes(recent, matchedItems, request, policy.episodes, now);
 */
export function activateEpisodes(
  all: MemoryItem[],
  matched: MemoryItem[],
  request: ComposeRequest,
  limit: number,
  now: string,
): Array<{ item: MemoryItem; rule: string }> {
  const cues = request.cues ?? {};
  const range = isoRange(cues.time_range, 'cues.time_range');
  const wanted = [...(cues.tags ?? []), ...(cues.entities ?? [])].map((value) => value.toLowerCase());
  const out: Array<{ item: MemoryItem; rule: string }> = [];
  const matchedIds = new Set(matched.map((item) => item.id));
  for (const item of [...all].sort((a, b) => (dateOf(a) < dateOf(b) ? 1 : -1))) {
    if (out.length >= limit) break;
    const at = dateOf(item);
    if (
      range !== undefined &&
      ((range.start !== undefined && at < range.start) || (range.end !== undefined && at > range.end))
    )
      continue;
    const names = [...item.tags, ...item.entities].map((value) => value.toLowerCase());
    let rule: string | undefined;
    if (matchedIds.has(item.id)) rule = 'cue.hybrid_search';
    else if (wanted.length > 0 && names.some((name) => wanted.includes(name))) rule = 'cue.tags_entities';
    else if (range !== undefined) rule = 'cue.time_range';
    else if (wanted.length === 0 && request.cues?.query === undefined) rule = 'ltm.recent_episodes';
    if (rule !== undefined && at <= now) out.push({ item, rule });
  }
  return out;
}

/**
 * The activated episodes offered in order, whole or with their summary cut short, each with the
 * citations `cites` gives it; one already placed as a fact is left out.
 *
 * @example
 * const placed = builder.place(episodeEntries(candidates.episodes, cites, { now, tokenizer, placedAsFacts }));
 */
export function episodeEntries(
  episodes: ReadonlyArray<{ item: MemoryItem; rule: string }>,
  cites: (item: MemoryItem) => Citation[],
  options: { now: string; tokenizer: Tokenizer; placedAsFacts: ReadonlySet<string> },
): Array<Entry<Episode>> {
  const { now, tokenizer, placedAsFacts } = options;
  return episodes.map(({ item, rule }): Entry<Episode> => {
    // A dated event already placed as a fact is not paid for twice.
    if (placedAsFacts.has(item.id))
      return {
        omit: { part: 'episodes', id: item.id },
        reason: 'duplicate',
        section: 'episodes',
        detail: 'already in the packet as a fact',
      };
    const range = timeRangeOf(item);
    const age = Math.max(0, Date.parse(now) - Date.parse(range.end)) / DAY_MS;
    const summary = describeValue(item.type, item.value);
    const highlights = item.value['highlights'];
    const level = item.value['compression_level'];
    const episode: Episode = {
      episode_id: item.id,
      time_range: range,
      summary,
      highlights: Array.isArray(highlights)
        ? highlights.filter((entry): entry is string => typeof entry === 'string')
        : [],
      tags: item.tags,
      entities: item.entities,
      sources: item.source_event_ids,
      compression_level: level === 'phase_summary' || level === 'milestone' ? level : 'raw',
      recency_score: Math.round(Math.exp(-age / 30) * 1000) / 1000,
    };
    return {
      ref: { part: 'episodes', id: item.id },
      section: 'episodes',
      rule,
      forms: [
        { level: 'raw', value: episode },
        lazyForm('summary', () => ({
          ...episode,
          summary: tokenizer.truncate(summary, 16),
          compression_level: 'milestone' as const,
        })),
      ],
      text: itemText.episode,
      whole: { record: item, line: (value) => (value.summary === summary ? itemLine.episode(value) : undefined) },
      cites: cites(item),
    };
  });
}
