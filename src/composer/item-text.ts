// How each packet item reads when injected into a prompt. Budgets are measured on this text (the
// tokens the model will actually see), not on the JSON envelope, and the renderers use the same
// functions, so what is counted is what is shown. An item shows its citation as a handle: the last
// six characters of its id (the random part of a ULID), 6 tokens instead of about 21 for the whole
// id; `resolveCitation(packet, handle)` turns a handle the model quotes back into the cited id.

import type { Episode, Fact, InsightItem, KeyQuote, WindowMessage } from '../spec/packet.js';
import type { Decision, OpenLoop, PlanStep, Risk, ToolEvidence } from '../spec/working-state.js';
import { speakerLabel, speakerName } from '../events/speaker.js';

function day(ts: string | undefined): string {
  return ts === undefined ? '' : `, ${ts.slice(0, 10)}`;
}

/**
 * The heading key quotes of one day show under (`2023-08-23:`), once for all of that day's quotes:
 * a date on every line took 6 of its 17 tokens of handle and label. Undefined for a quote without
 * a time (it shows under none).
 *
 * @example
 * quoteDayHeading({ evidence_id: 'evt_…', quote: '…', ts: '2023-08-23T14:02:00.000Z' }) // '2023-08-23:'
 */
export function quoteDayHeading(quote: Pick<KeyQuote, 'ts'>): string | undefined {
  return quote.ts === undefined ? undefined : `${quote.ts.slice(0, 10)}:`;
}

/** Characters of an id a prompt shows. */
export const HANDLE_LENGTH = 6;

/**
 * The handle a prompt shows for an evidence or memory id.
 *
 * @example
 * citationHandle('evt_01M7Z6NCYD9SGR8TDYBFVKY2P2') // 'VKY2P2'
 */
export function citationHandle(id: string): string {
  return id.slice(-HANDLE_LENGTH);
}

function ref(id: string | undefined): string {
  return id === undefined ? '' : `[${citationHandle(id)}] `;
}

/**
 * Text as an XML text node, as the XML rendering shows it: `&`, `<` and `>` escaped (quotes need no
 * escaping outside attributes).
 *
 * @example
 * escapeXmlText('Q&A <b>') // 'Q&amp;A &lt;b&gt;'
 */
export function escapeXmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** One line of text: line breaks inside an item become `; ` so each item stays one list entry. */
function oneLine(text: string): string {
  return text.replace(/\s*\n+\s*/g, '; ');
}

/** How a citation's summary names who said the cited event: `said by Caroline`. */
const SAID_BY = 'said by ';

/**
 * The summary of a cited event that names its speaker, which a rendering shows instead of the role
 * of the event's quote or message (the packet's key quotes and messages carry a role, not a
 * speaker). Undefined for an event without a speaker.
 *
 * @example
 * speakerSummary('Caroline') // 'said by Caroline'
 */
export function speakerSummary(speaker: string | null): string | undefined {
  const name = speakerName(speaker);
  return name === undefined ? undefined : `${SAID_BY}${name}`;
}

/**
 * Who said each event the packet's citations name a speaker for (`speakerSummary`), by event id.
 *
 * @example
 * speakersOf([{ id: 'evt_…', type: 'message', summary: 'said by Caroline' }]) // Map { 'evt_…' => 'Caroline' }
 */
export function speakersOf(citations: ReadonlyArray<{ id: string; summary?: string }>): Map<string, string> {
  const speakers = new Map<string, string>();
  for (const citation of citations) {
    const speaker = citedSpeaker(citation);
    if (speaker !== undefined) speakers.set(citation.id, speaker);
  }
  return speakers;
}

/**
 * Who said the event one citation names (`speakerSummary`); undefined when it names nobody.
 *
 * @example
 * citedSpeaker({ summary: 'said by Caroline' }) // 'Caroline'
 */
export function citedSpeaker(citation: { summary?: string } | undefined): string | undefined {
  const summary = citation?.summary;
  return summary?.startsWith(SAID_BY) === true && summary.length > SAID_BY.length
    ? summary.slice(SAID_BY.length)
    : undefined;
}

/**
 * Who said a quote or message, as its line names it: the speaker's name (`speakerLabel`), else the
 * role. The name replaces the role rather than joining it: `Caroline (user):` took two tokens more
 * a line and cited less evidence on LoCoMo at 256 tokens (0.705 against 0.713). The role stays in
 * the packet's JSON.
 */
function saidBy(role: string, speaker: string | undefined): string {
  return speakerLabel(speaker) ?? role;
}

/**
 * The text a quote or message line shows: one line, and a marker for an item degraded to its
 * reference, so the model knows there is more at the id.
 */
export function quotedText(text: string): string {
  return text === '' ? '(see the cited event)' : oneLine(text);
}

/**
 * A prompt line in three parts: the handle (`[VKY2P2]`, or nothing), what the item is (` user:`,
 * ` user, 2026-11-02:`), and the text it shows, after a space. Budgets charge a line's handle and text
 * together with a count kept with its row (text-tokens.ts), so only the middle is counted.
 */
export interface ItemLine {
  handle: string;
  label: string;
  body: string;
}

function handleOf(id: string | undefined): string {
  return id === undefined ? '' : `[${citationHandle(id)}]`;
}

/** What a line labels after its handle: a space first, unless there is no handle. */
function label(id: string | undefined, text: string): string {
  return id === undefined ? text : ` ${text}`;
}

/** The parts of the lines whose text is that of an event or item version. */
export const itemLine = {
  /** A key quote's line under its day's heading (`quoteDayHeading`): handle, who said it (`saidBy`), text. */
  keyQuote: (quote: KeyQuote, speaker?: string): ItemLine => ({
    handle: handleOf(quote.evidence_id),
    label: label(quote.evidence_id, `${saidBy(quote.role ?? 'user', speaker)}:`),
    body: quotedText(quote.quote),
  }),
  windowMessage: (message: WindowMessage, speaker?: string): ItemLine => ({
    handle: handleOf(message.evidence_id),
    label: label(message.evidence_id, `${saidBy(message.role, speaker)}${day(message.ts)}:`),
    body: quotedText(message.content),
  }),
  fact: (fact: Fact): ItemLine => ({
    handle: handleOf(fact.fact_id),
    label: ` ${fact.fact_key}${fact.status === 'disputed' ? ' (disputed)' : ''}:`,
    body: fact.notes ?? '',
  }),
  /** An episode under its day (` 2026-03-02:`), or with no label when its summary opens with the day (a dated event's does). */
  episode: (episode: Episode): ItemLine => {
    const day = episode.time_range.start.slice(0, 10);
    return {
      handle: handleOf(episode.episode_id),
      label: episode.summary.startsWith(day) ? '' : ` ${day}:`,
      body: episode.summary,
    };
  },
  /** A procedure, given how its content reads. */
  procedure: (procedureId: string, described: string): ItemLine => ({
    handle: handleOf(procedureId),
    label: '',
    body: described,
  }),
  /**
   * A tool result shown whole as tool evidence (`[VKY2P2] search: …`), when `itemText.toolEvidence`
   * of its summary `<tool>: <text>` reads as these parts joined (a text opening with a line break does not).
   */
  toolResult: (eventId: string, toolName: string, text: string): ItemLine => ({
    handle: handleOf(eventId),
    label: ` ${toolName}:`,
    body: quotedText(text),
  }),
} as const;

/** A line as a prompt shows it. */
export function joinLine(line: ItemLine): string {
  return `${line.handle}${line.label} ${line.body}`;
}

export const itemText = {
  keyQuote: (quote: KeyQuote, speaker?: string): string => joinLine(itemLine.keyQuote(quote, speaker)),
  windowMessage: (message: WindowMessage, speaker?: string): string =>
    joinLine(itemLine.windowMessage(message, speaker)),
  toolEvidence: (evidence: ToolEvidence): string => `${ref(evidence.ref)}${oneLine(evidence.summary)}`,
  decision: (decision: Decision): string => `${ref(decision.evidence_id)}Decision: ${decision.statement}`,
  risk: (risk: Risk): string =>
    `Risk: ${risk.risk}${risk.mitigation === undefined ? '' : ` (mitigation: ${risk.mitigation})`}`,
  openLoop: (loop: OpenLoop): string => `${ref(loop.evidence_id)}Open (${loop.owner ?? 'agent'}): ${loop.question}`,
  goal: (goal: string): string => `Goal: ${goal}`,
  object: (label: string, value: Record<string, unknown>): string => `${label}: ${JSON.stringify(value)}`,
  fact: (fact: Fact): string => joinLine(itemLine.fact(fact)),
  episode: (episode: Episode): string => joinLine(itemLine.episode(episode)),
  /** A procedure, given how its content reads. */
  procedure: (procedureId: string, described: string): string => joinLine(itemLine.procedure(procedureId, described)),
  insight: (item: InsightItem): string => {
    const tests = item.tests_suggested ?? [];
    return `${ref(item.id)}${item.type} (${item.validation_state}): ${oneLine(item.statement)}${tests.length === 0 ? '' : ` Tests: ${oneLine(tests.join('; '))}`}`;
  },
  plan: (steps: readonly PlanStep[]): string =>
    `Plan:\n${steps.map((step, index) => `${index + 1}. [${step.status}] ${step.step}`).join('\n')}`,
} as const;
