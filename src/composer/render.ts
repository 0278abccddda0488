// Prompt text from a MemoryPacket, in Markdown or XML-tagged form. Deterministic, each item carries
// its citation as a handle (the id's last six characters; resolveCitation maps it back), and each
// line reads as item-text.ts says, so what the budget counted is what the model sees. Sections the
// packet left empty (for example by the purpose's rules) are not rendered.

import type { Fact, MemoryPacket, InsightItem, KeyQuote } from '../spec/packet.js';
import { citationHandle, escapeXmlText, itemText, quoteDayHeading, speakersOf } from './item-text.js';

export type RenderFormat = 'markdown' | 'xml';

/** Each part of a rendered packet: its XML tag and its Markdown heading, in the order they render. */
export const RENDER_BLOCKS = {
  working_state: 'Working state',
  open_loops: 'Open loops',
  upcoming: 'Upcoming',
  tool_evidence: 'Latest tool evidence',
  summary: 'Conversation summary',
  key_quotes: 'Key quotes',
  conversation: 'Recent conversation',
  preferences: 'Preferences',
  facts: 'Facts',
  procedures: 'Procedures',
  episodes: 'Episodes',
  hypotheses: 'Hypotheses (unconfirmed)',
  strategy_sketches: 'Strategy sketches (unconfirmed)',
  patterns: 'Patterns',
} as const;

export type BlockTag = keyof typeof RENDER_BLOCKS;

/**
 * The pieces of text a rendering adds for one part, in each format: the blank line before a
 * Markdown heading and the heading; the XML tag pair with its indentation and line breaks.
 *
 * @example
 * blockFraming('facts').markdown // ['\n\n', '## Facts\n']
 */
export function blockFraming(tag: BlockTag): Record<RenderFormat, string[]> {
  return { markdown: ['\n\n', `## ${RENDER_BLOCKS[tag]}\n`], xml: [`  <${tag}>\n`, `\n  </${tag}>`, '\n'] };
}

/**
 * The line a group of items shows under inside its part (a day of key quotes), in each format.
 *
 * @example
 * groupFraming('2023-08-23:').markdown // ['2023-08-23:\n']
 */
export function groupFraming(heading: string): Record<RenderFormat, string[]> {
  return { markdown: [`${heading}\n`], xml: [`    ${heading}\n`] };
}

/**
 * The pieces of text a rendering adds once per packet, in each format: the title and the last
 * line break, or the root element.
 *
 * @example
 * packetFraming('responder', '2026-11-02T09:00:00.000Z').xml[1] // '\n</memory>\n'
 */
export function packetFraming(purpose: string, generatedAt: string): Record<RenderFormat, string[]> {
  return {
    markdown: [`# Memory for the ${purpose} (${generatedAt})\n\n`, '\n'],
    xml: [`<memory purpose="${purpose}" generated_at="${generatedAt}">\n`, '\n</memory>\n'],
  };
}

/** Keys of the items that can be upcoming (MemoryTypes v0.1 §2), and the value field holding the date. */
const DATED_KEYS: ReadonlyArray<readonly [prefix: string, field: string]> = [
  ['event:', 'date'],
  ['task:', 'due'],
  ['goal:', 'due'],
];
/** States that end a task, goal or plan: it is no longer coming. */
const ENDED = new Set(['done', 'cancelled', 'canceled', 'ended', 'completed']);

/**
 * The day (YYYY-MM-DD) a fact is coming on, if it is still to come at `now`: a dated event, or an
 * open task or goal due on that day or later. Undefined for anything else.
 *
 * @example
 * upcomingDay('event:general:2026-12-15:trip', { date: '2026-12-15', title: 'Trip' }, '2026-12-01T09:00:00.000Z') // '2026-12-15'
 */
export function upcomingDay(key: string, value: unknown, now: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const field = DATED_KEYS.find(([prefix]) => key.startsWith(prefix))?.[1];
  const day = field === undefined ? undefined : record[field];
  if (typeof day !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(day)) return undefined;
  if (typeof record['status'] === 'string' && ENDED.has(record['status'])) return undefined;
  return day.slice(0, 10) >= now.slice(0, 10) ? day.slice(0, 10) : undefined;
}

/**
 * The part a fact renders under: preferences under their own heading, what is still to come under
 * Upcoming, the rest under Facts.
 *
 * @example
 * factBlock(fact, packet.meta.generated_at) // 'upcoming'
 */
export function factBlock(fact: Pick<Fact, 'fact_key' | 'value'>, now: string): 'preferences' | 'upcoming' | 'facts' {
  if (fact.fact_key.startsWith('pref:')) return 'preferences';
  return upcomingDay(fact.fact_key, fact.value, now) === undefined ? 'facts' : 'upcoming';
}

interface Block {
  title: string;
  tag: BlockTag;
  lines: string[];
  /** The lines that head a group of the lines after them (no bullet). */
  headings?: ReadonlySet<number>;
}

/**
 * Key quotes under the day each was said: the days in the order of their first quote, each day's
 * quotes in the packet's order, a quote without a time under no heading.
 */
function keyQuoteLines(
  quotes: readonly KeyQuote[],
  speakers: ReadonlyMap<string, string>,
): Pick<Block, 'lines' | 'headings'> {
  const byDay = new Map<string | undefined, KeyQuote[]>();
  for (const quote of quotes) {
    const heading = quoteDayHeading(quote);
    const day = byDay.get(heading);
    if (day === undefined) byDay.set(heading, [quote]);
    else day.push(quote);
  }
  const lines: string[] = [];
  const headings = new Set<number>();
  for (const [heading, dayQuotes] of byDay) {
    if (heading !== undefined) {
      headings.add(lines.length);
      lines.push(heading);
    }
    lines.push(...dayQuotes.map((quote) => itemText.keyQuote(quote, speakers.get(quote.evidence_id))));
  }
  return { lines, headings };
}

function workingStateLines(packet: MemoryPacket): string[] {
  const state = packet.short_term.working_state;
  const lines: string[] = [];
  if (state.goal) lines.push(itemText.goal(state.goal));
  if (state.constraints !== undefined) lines.push(itemText.object('Constraints', state.constraints));
  if (state.slots !== undefined) lines.push(itemText.object('Slots', state.slots));
  for (const decision of state.decisions ?? []) lines.push(itemText.decision(decision));
  if (state.plan !== undefined && state.plan.length > 0) lines.push(itemText.plan(state.plan));
  for (const risk of state.risks ?? []) lines.push(itemText.risk(risk));
  for (const evidence of state.tool_evidence ?? []) lines.push(itemText.toolEvidence(evidence));
  return lines;
}

function insightLines(items: readonly InsightItem[]): string[] {
  return items.map(itemText.insight);
}

function blocks(packet: MemoryPacket): Block[] {
  const { short_term: shortTerm, long_term: longTerm, insight } = packet;
  const preferenceIds = new Set((longTerm.preferences ?? []).map((fact) => fact.fact_id));
  const factLine = (fact: (typeof longTerm.facts)[number]) =>
    itemText.fact({ ...fact, notes: fact.notes ?? JSON.stringify(fact.value) });
  const now = packet.meta.generated_at;
  const others = longTerm.facts.filter((fact) => !preferenceIds.has(fact.fact_id));
  // What is still to come, soonest first.
  const upcoming = others
    .map((fact) => ({ fact, day: upcomingDay(fact.fact_key, fact.value, now) }))
    .filter((entry): entry is { fact: Fact; day: string } => entry.day !== undefined)
    .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  // Who said each quote and message, as the citations name them.
  const speakers = speakersOf(packet.citations);
  const quoteLines = keyQuoteLines(shortTerm.key_quotes ?? [], speakers);
  const lines: Record<BlockTag, string[]> = {
    working_state: workingStateLines(packet),
    open_loops: (shortTerm.open_loops ?? []).map(itemText.openLoop),
    upcoming: upcoming.map((entry) => factLine(entry.fact)),
    tool_evidence: (shortTerm.last_tool_evidence ?? []).map(itemText.toolEvidence),
    summary: shortTerm.rolling_summary === '' ? [] : shortTerm.rolling_summary.split('\n'),
    key_quotes: quoteLines.lines,
    conversation: (shortTerm.conversation_window ?? []).map((message) =>
      itemText.windowMessage(message, speakers.get(message.evidence_id)),
    ),
    preferences: (longTerm.preferences ?? []).map(factLine),
    facts: others.filter((fact) => factBlock(fact, now) === 'facts').map(factLine),
    procedures: longTerm.procedures.map((procedure) =>
      itemText.procedure(procedure.procedure_id, `${procedure.task_type}: ${JSON.stringify(procedure.content)}`),
    ),
    episodes: longTerm.episodes.map(itemText.episode),
    hypotheses: insightLines(insight.hypotheses),
    strategy_sketches: insightLines(insight.strategy_sketches),
    patterns: insightLines(insight.patterns),
  };
  return (Object.keys(RENDER_BLOCKS) as BlockTag[])
    .map((tag): Block => ({
      title: RENDER_BLOCKS[tag],
      tag,
      lines: lines[tag],
      ...(tag === 'key_quotes' ? { headings: quoteLines.headings } : {}),
    }))
    .filter((block) => block.lines.length > 0);
}

/**
 * The packet as prompt text.
 *
 * @example
 * const text = renderPacket(packet, { format: 'markdown' });
 */
export function renderPacket(packet: MemoryPacket, options: { format?: RenderFormat } = {}): string {
  const format = options.format ?? 'markdown';
  const parts = blocks(packet);
  const purpose = packet.meta.purpose;
  if (format === 'xml') {
    const body = parts.map((block) => {
      const [open, close] = blockFraming(block.tag).xml;
      return `${open!}${block.lines.map((line) => `    ${escapeXmlText(line).replace(/\n/g, '\n    ')}`).join('\n')}${close!}`;
    });
    const [root, end] = packetFraming(purpose, packet.meta.generated_at).xml;
    return `${root!}${body.join('\n')}${end!}`;
  }
  const body = parts.map(
    (block) =>
      `${blockFraming(block.tag).markdown[1]!}${block.lines.map((line, index) => (block.tag === 'summary' || block.headings?.has(index) === true ? line : `- ${line}`)).join('\n')}`,
  );
  const [title, end] = packetFraming(purpose, packet.meta.generated_at).markdown;
  return `${title!}${body.join('\n\n')}${end!}`;
}

/**
 * The ids a citation handle of a rendered packet stands for: every cited event and every fact,
 * procedure, episode and insight of the packet whose id ends with it (brackets are ignored). One id
 * in practice; two ids of one packet share a handle with a chance of about one in a million.
 *
 * @example
 * resolveCitation(packet, '[VKY2P2]') // ['evt_01M7Z6NCYD9SGR8TDYBFVKY2P2']
 */
export function resolveCitation(packet: MemoryPacket, handle: string): string[] {
  const wanted = handle.trim().replace(/^\[|\]$/g, '');
  if (wanted === '') return [];
  return citedIds(packet).filter((id) => citationHandle(id) === wanted);
}

/**
 * Every id a packet cites: its events, and its facts, procedures, episodes and insights, once each.
 *
 * @example
 * citedIds(packet) // ['evt_01M7Z6NCYD9SGR8TDYBFVKY2P2', 'mem_01M7Z6…', …]
 */
export function citedIds(packet: MemoryPacket): string[] {
  return [
    ...new Set<string>([
      ...packet.citations.map((citation) => citation.id),
      ...packet.long_term.facts.map((fact) => fact.fact_id),
      ...(packet.long_term.preferences ?? []).map((fact) => fact.fact_id),
      ...packet.long_term.procedures.map((procedure) => procedure.procedure_id),
      ...packet.long_term.episodes.map((episode) => episode.episode_id),
      ...[...packet.insight.hypotheses, ...packet.insight.strategy_sketches, ...packet.insight.patterns].map(
        (item) => item.id,
      ),
    ]),
  ];
}
