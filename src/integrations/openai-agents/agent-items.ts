// How the Agents SDK's history items live in Engram's episodic log. Each item is one event of a
// turn: messages as messages, function results as tool results, anything else as a system message
// the packets leave out; the item itself rides in the event's metadata, so it comes back exactly.
// A history edit (popItem, clearSession) is a RUN_END marker saying how many items the history keeps.

import { protocol, type AgentInputItem } from '@openai/agents-core';

import type { CommitTurnRequest, EventRecord } from '../../index.js';
import { ValidationError } from '../../index.js';

/** The metadata member that marks the events this integration writes. */
export const METADATA_KEY = 'openai_agents';

type TurnMessage = NonNullable<CommitTurnRequest['messages']>[number];
type TurnToolResult = NonNullable<CommitTurnRequest['tool_results']>[number];

/** What an edit marker records: the items the history keeps, and the run later items go to. */
export interface HistoryEdit {
  keep: number;
  next_run: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The readable text of an item's content: text parts joined, other parts named by their type. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map(textOf)
      .filter((text) => text !== '')
      .join(' ');
  if (!isRecord(content)) return '';
  for (const field of ['text', 'refusal', 'transcript'] as const)
    if (typeof content[field] === 'string') return content[field];
  return typeof content['type'] === 'string' ? `[${content['type']}]` : '';
}

function metadataOf(item: AgentInputItem, index: number): Record<string, unknown> {
  return { [METADATA_KEY]: { index, item } };
}

/**
 * The messages and tool results of a turn that records items, in order (`index` in each event's
 * metadata, since a turn logs its messages before its tool results).
 *
 * @example
 * turnParts([{ role: 'user', content: 'Hi' }]).messages // [{ role: 'user', content: 'Hi', metadata: … }]
 */
export function turnParts(items: readonly AgentInputItem[]): {
  messages: TurnMessage[];
  tool_results: TurnToolResult[];
} {
  const messages: TurnMessage[] = [];
  const toolResults: TurnToolResult[] = [];
  items.forEach((item, index) => {
    const metadata = metadataOf(item, index);
    const record = item as Record<string, unknown>;
    if (record['type'] === 'function_call_result' && typeof record['name'] === 'string') {
      const output = record['output'];
      toolResults.push({
        tool_name: record['name'],
        content: isRecord(output) && typeof output['text'] !== 'string' ? output : textOf(output),
        ...(typeof record['callId'] === 'string' ? { call_id: record['callId'] } : {}),
        status: record['status'] === 'incomplete' ? 'error' : 'ok',
        metadata,
      });
    } else if ((record['type'] === undefined || record['type'] === 'message') && typeof record['role'] === 'string') {
      messages.push({ role: record['role'] as TurnMessage['role'], content: textOf(record['content']), metadata });
    } else if (record['type'] === 'function_call') {
      messages.push({
        role: 'assistant',
        content: `${String(record['name'])}(${String(record['arguments'] ?? '')})`,
        content_type: 'command',
        metadata,
      });
    } else {
      // Reasoning, hosted tool calls, compaction markers…: kept in the log, out of packets and extraction.
      messages.push({
        role: 'system',
        content:
          `[${String(record['type'])}] ${textOf(record['content'] ?? record['summary'] ?? record['output'])}`.trim(),
        embeddable: false,
        metadata,
      });
    }
  });
  return { messages, tool_results: toolResults };
}

/** What one event of the log holds for the history: an item at its place in its turn, an edit, or nothing. */
export type LoggedEntry =
  { kind: 'item'; index: number; item: AgentInputItem } | { kind: 'edit'; edit: HistoryEdit } | undefined;

/**
 * Reads what an event holds for the history, checked against the SDK's own item schema.
 *
 * @example
 * const entry = loggedEntry(event); // { kind: 'item', index: 0, item: { role: 'user', content: 'Hi' } }
 */
export function loggedEntry(event: EventRecord): LoggedEntry {
  const recorded = event.origin_metadata[METADATA_KEY];
  if (!isRecord(recorded)) return undefined;
  if (event.kind === 'marker') {
    const { keep, next_run: nextRun } = recorded;
    if (typeof keep !== 'number' || !Number.isInteger(keep) || keep < 0 || typeof nextRun !== 'string')
      throw invalid(event, 'an edit with keep and next_run');
    return { kind: 'edit', edit: { keep, next_run: nextRun } };
  }
  const { index, item } = recorded;
  if (typeof index !== 'number' || !protocol.ModelItem.safeParse(item).success)
    throw invalid(event, 'an Agents SDK item');
  return { kind: 'item', index, item: item as AgentInputItem };
}

function invalid(event: EventRecord, expected: string): ValidationError {
  return ValidationError.of(
    `events.${event.id}.origin_metadata.${METADATA_KEY}`,
    'agents_item',
    `event ${event.id} was written by this integration but does not hold ${expected}`,
  );
}
