// The working_state budget section: the session's working state (only the fields the purpose may
// see), its open loops, and for planner and tool the latest tool evidence.

import type { Citation, PacketWorkingState, Purpose } from '../spec/packet.js';
import type { EventRecord } from '../spec/event.js';
import type { SessionKey } from '../spec/scope.js';
import type { Tokenizer } from '../spec/tokenizer.js';
import type { EventQuery, StorageAdapter } from '../spec/storage.js';
import {
  emptyWorkingState,
  type OpenLoop,
  type PlanStep,
  type ToolEvidence,
  type WorkingState,
} from '../spec/working-state.js';
import { contentText } from '../events/content-text.js';
import { NEVER_SHARED } from '../events/sensitivity.js';
import { workingStateAsOf } from '../working-memory/as-of.js';
import { INJECTION, type PurposePolicy, type WorkingStateField } from './policy.js';
import { lazyForm, textForms } from './forms.js';
import type { Entry, Offer, PacketBuilder } from './packet-builder.js';
import { itemLine, itemText, joinLine, speakerSummary } from './item-text.js';

const LIST_FIELDS = new Set<WorkingStateField>(['decisions', 'risks', 'tool_evidence']);

/**
 * A citation for an event.
 *
 * @example
 * citationOf(event) // { id: 'evt_…', type: 'message', ts: '…' }
 */
export function citationOf(event: Pick<EventRecord, 'id' | 'kind' | 'ts'>): Citation {
  return { id: event.id, type: event.kind, ts: event.ts };
}

/**
 * A citation for an event a packet quotes or shows as a message: its summary names who said it, when
 * the event has a speaker, so a rendering shows the name instead of the role (`speakerSummary`).
 *
 * @example
 * spokenCitation(event) // { id: 'evt_…', type: 'message', ts: '…', summary: 'said by Caroline' }
 */
export function spokenCitation(event: Pick<EventRecord, 'id' | 'kind' | 'ts' | 'speaker'>): Citation {
  const summary = speakerSummary(event.speaker);
  return summary === undefined ? citationOf(event) : { ...citationOf(event), summary };
}

/** What the working_state section reads: the session's state, its latest tool results, and the events its entries cite. */
export interface WorkingStateInputs {
  state: WorkingState;
  /** Newest first. */
  toolEvents: EventRecord[];
  /** The events decisions and open loops point to, by id: those a packet may show. */
  evidence: Map<string, EventRecord>;
}

/**
 * Reads the working state (as of `asOf` when given), the policy's latest tool results of the
 * session (`events`: its event filters), and the events its decisions and open loops cite, at `now`.
 *
 * @example
 * const inputs = await gatherWorkingState(storage, key, events, policy, { now, asOf });
 */
export async function gatherWorkingState(
  storage: StorageAdapter,
  key: SessionKey,
  events: Omit<EventQuery, 'limit'>,
  policy: PurposePolicy,
  at: { now: string; asOf: string | undefined },
): Promise<WorkingStateInputs> {
  const { now, asOf } = at;
  const [read, toolEvents] = await Promise.all([
    asOf === undefined ? storage.sessions.getWorkingState(key) : workingStateAsOf(storage, key, asOf),
    policy.tool_evidence > 0
      ? storage.events.list({ ...events, kinds: ['tool_result'], order: 'desc', limit: policy.tool_evidence })
      : Promise.resolve([]),
  ]);
  const state = read ?? emptyWorkingState();
  const wanted = [...state.decisions, ...state.open_loops]
    .map((entry) => entry.evidence_id)
    .filter((id): id is string => typeof id === 'string' && id.startsWith('evt_'));
  const found = await Promise.all([...new Set(wanted)].map((id) => storage.events.get(key.tenant_id, id, now)));
  const evidence = new Map<string, EventRecord>();
  for (const event of found)
    if (event !== null && !NEVER_SHARED.includes(event.sensitivity)) evidence.set(event.id, event);
  return { state, toolEvents, evidence };
}

export interface WorkingStateOutput {
  working_state: PacketWorkingState;
  open_loops: OpenLoop[];
  last_tool_evidence: ToolEvidence[];
}

/** The fields of the working state, in the order a packet shows and offers them. */
const FIELDS = ['goal', 'constraints', 'slots', 'decisions', 'plan', 'risks', 'tool_evidence'] as const;
type Field = (typeof FIELDS)[number];

/** Where a placed entry goes: a field of the state, the open loops or the tool evidence, at its index in a list. */
interface Target {
  key: Field | 'open_loops' | 'last_tool_evidence';
  index?: number;
}

/**
 * Fills the working_state section. Fields are offered in the purpose's priority order; list fields
 * item by item, newest first, so a tight budget keeps the latest decisions. The open loops are the
 * session's and, given, a snapshot's.
 *
 * @example
 * const output = fillWorkingState(builder, inputs, openLoops, 'planner', policy);
 */
export function fillWorkingState(
  builder: PacketBuilder,
  inputs: WorkingStateInputs,
  openLoops: readonly OpenLoop[],
  purpose: Purpose,
  policy: PurposePolicy,
): WorkingStateOutput {
  const { state } = inputs;
  const cites = (evidenceId: string | undefined): Citation[] => {
    if (evidenceId === undefined) return [];
    const event = inputs.evidence.get(evidenceId);
    return event === undefined ? [{ id: evidenceId, type: 'reference' }] : [citationOf(event)];
  };
  const entries: Array<Entry<unknown>> = [];
  const targets: Array<Target | undefined> = [];
  const add = (entry: Entry<unknown>, target?: Target) => {
    entries.push(entry);
    targets.push(target);
  };
  // A list item by item, newest first, each citing the event it points to.
  const newestFirst = <T extends object>(
    key: 'decisions' | 'risks' | 'tool_evidence' | 'open_loops',
    items: readonly T[],
    text: (item: T) => string,
  ) => {
    for (let index = items.length - 1; index >= 0; index -= 1) {
      const item = items[index]!;
      const offer: Offer<T> = {
        ref: key === 'open_loops' ? { part: key, index } : { part: 'working_state', field: key, index },
        section: 'working_state',
        rule: `wm.${key}`,
        forms: [{ level: 'raw', value: item }],
        text,
        cites: key === 'tool_evidence' ? [] : cites((item as { evidence_id?: string }).evidence_id),
      };
      add(offer as Offer<unknown>, { key, index });
    }
  };

  for (const field of FIELDS) {
    if (isEmpty(state[field])) continue;
    if (!INJECTION[purpose].working_state_fields.includes(field)) {
      add({
        omit: { part: 'working_state', field },
        reason: 'not_allowed_for_purpose',
        section: 'working_state',
        detail: `${purpose} packets do not carry ${field} (spec §9)`,
      });
    } else if (field === 'decisions') newestFirst(field, state.decisions, itemText.decision);
    else if (field === 'risks') newestFirst(field, state.risks, itemText.risk);
    else if (field === 'tool_evidence') newestFirst(field, state.tool_evidence, itemText.toolEvidence);
    else {
      const offer = {
        ref: { part: 'working_state' as const, field },
        section: 'working_state' as const,
        rule: `wm.${field}`,
        forms: fieldForms(field, state, builder.costs.tokenizer),
        text: fieldText(field),
      };
      add(offer, { key: field });
    }
  }

  const open = openLoops.filter((loop) => {
    if (loop.status === 'open') return true;
    add({
      omit: { part: 'open_loops', label: loop.question.slice(0, 60) },
      reason: 'closed',
      section: 'working_state',
      detail: 'the loop is closed',
    });
    return false;
  });
  newestFirst('open_loops', open, itemText.openLoop);
  for (const [index, entry] of toolEvidenceEntries(inputs.toolEvents, purpose, policy, builder).entries())
    add(entry, 'omit' in entry ? undefined : { key: 'last_tool_evidence', index });

  return collect(state, builder.place(entries), targets);
}

/** The section's output from what was placed: fields in their order, list items back in theirs, tool evidence oldest first. */
function collect(
  state: WorkingState,
  placed: ReadonlyArray<{ level: string; value: unknown } | undefined>,
  targets: ReadonlyArray<Target | undefined>,
): WorkingStateOutput {
  const byKey = new Map<Target['key'], Array<{ index: number; level: string; value: unknown }>>();
  for (const [position, taken] of placed.entries()) {
    const target = targets[position];
    if (taken === undefined || target === undefined) continue;
    byKey.set(target.key, [
      ...(byKey.get(target.key) ?? []),
      { index: target.index ?? 0, level: taken.level, value: taken.value },
    ]);
  }
  const list = (key: Target['key']) =>
    (byKey.get(key) ?? []).sort((a, b) => a.index - b.index).map((entry) => entry.value);
  const packetState: PacketWorkingState = { state_version: state.state_version };
  const shown = packetState as Record<string, unknown>;
  for (const field of FIELDS) {
    const [taken] = byKey.get(field) ?? [];
    if (LIST_FIELDS.has(field)) {
      const kept = list(field);
      if (kept.length > 0) shown[field] = kept;
    } else if (taken !== undefined && taken.level !== 'ref') shown[field] = taken.value;
  }
  return {
    working_state: packetState,
    open_loops: list('open_loops') as OpenLoop[],
    last_tool_evidence: (list('last_tool_evidence') as ToolEvidence[]).reverse(),
  };
}

/** The latest tool results as tool evidence, for the purposes that see it; left out, with the reason, for the others. */
function toolEvidenceEntries(
  toolEvents: readonly EventRecord[],
  purpose: Purpose,
  policy: PurposePolicy,
  builder: PacketBuilder,
): Array<Entry<unknown>> {
  if (!INJECTION[purpose].last_tool_evidence) {
    return toolEvents.map((event) => ({
      omit: { part: 'last_tool_evidence', id: event.id },
      reason: 'not_allowed_for_purpose',
      section: 'working_state',
      detail: `${purpose} packets carry no tool evidence (spec §3.1)`,
    }));
  }
  const { costs } = builder;
  return toolEvents.slice(0, policy.tool_evidence).map((event) => {
    const toolName =
      typeof event.origin_metadata['tool_name'] === 'string' ? event.origin_metadata['tool_name'] : 'tool';
    const text = contentText(event.content);
    const whole = `${toolName}: ${text}`;
    // Shown whole, the line is the event's handle and text (their tokens kept with its row) around
    // the tool's name: only the name is counted.
    const line = itemLine.toolResult(event.id, toolName, text);
    const wholeLine = text !== '' && joinLine(line) === itemText.toolEvidence({ ref: event.id, summary: whole });
    const wholeTokens = wholeLine ? costs.recordTokens(event, line) : undefined;
    const forms = textForms(text, costs.tokenizer, { raw: 120, quote: 40, summary: 12 }, undefined, {
      wholeTokens,
    }).map((form) =>
      lazyForm(form.level, () => ({
        ref: event.id,
        summary: form.value === '' ? toolName : `${toolName}: ${form.value}`,
      })),
    );
    const offer: Offer<ToolEvidence> = {
      ref: { part: 'last_tool_evidence', id: event.id },
      section: 'working_state',
      rule: 'events.latest_tool_results',
      forms,
      text: itemText.toolEvidence,
      whole: { record: event, line: (evidence) => (wholeLine && evidence.summary === whole ? line : undefined) },
      cites: [citationOf(event)],
    };
    return offer as Offer<unknown>;
  });
}

function isEmpty(value: unknown): boolean {
  if (value === '' || value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

function fieldForms(field: 'goal' | 'constraints' | 'slots' | 'plan', state: WorkingState, tokenizer: Tokenizer) {
  if (field === 'goal') return textForms(state.goal, tokenizer, { raw: 200, quote: 60, summary: 20 });
  if (field === 'plan') {
    const unfinished = state.plan.filter((step) => step.status !== 'done');
    const current = state.plan.filter((step) => step.status === 'in_progress');
    const forms: Array<{ level: 'raw' | 'quote' | 'summary'; value: unknown }> = [{ level: 'raw', value: state.plan }];
    if (unfinished.length < state.plan.length) forms.push({ level: 'quote', value: unfinished });
    if (current.length > 0 && current.length < unfinished.length) forms.push({ level: 'summary', value: current });
    return forms;
  }
  return [{ level: 'raw' as const, value: state[field] }];
}

function fieldText(field: 'goal' | 'constraints' | 'slots' | 'plan'): (value: unknown) => string {
  if (field === 'goal') return (value) => itemText.goal(value as string);
  if (field === 'plan') return (value) => itemText.plan(value as PlanStep[]);
  const label = field === 'slots' ? 'Slots' : 'Constraints';
  return (value) => itemText.object(label, value as Record<string, unknown>);
}
