// The working_state budget section: the session's working state (only the fields the purpose may
// see), its open loops, and for planner and tool the latest tool evidence.

import type { Citation, PacketWorkingState, Purpose } from '../spec/packet.js';
import type { EventRecord } from '../spec/event.js';
import type { OpenLoop, PlanStep, ToolEvidence, WorkingState } from '../spec/working-state.js';
import type { Tokenizer } from '../spec/tokenizer.js';
import { contentText } from '../events/content-text.js';
import { INJECTION, type PurposePolicy, type WorkingStateField } from './policy.js';
import { textForms } from './text-forms.js';
import { lazyForm, type PacketBuilder } from './packet-builder.js';
import { itemLine, itemText, joinLine } from './item-text.js';

const LIST_FIELDS = new Set<WorkingStateField>(['decisions', 'risks', 'tool_evidence']);

/** Evidence an item of the working state points to, resolved to citations where the event is known. */
export type CitationLookup = (evidenceId: string | undefined) => Citation[];

/**
 * A citation for an event.
 *
 * @example
 * citationOf(event) // { id: 'evt_…', type: 'message', ts: '…' }
 */
export function citationOf(event: Pick<EventRecord, 'id' | 'kind' | 'ts'>): Citation {
  return { id: event.id, type: event.kind, ts: event.ts };
}

export interface WorkingStateOutput {
  working_state: PacketWorkingState;
  open_loops: OpenLoop[];
  last_tool_evidence: ToolEvidence[];
}

/**
 * Fills the working_state section. Fields are offered in the purpose's priority order; list fields
 * item by item, newest first, so a tight budget keeps the latest decisions.
 *
 * @example
 * const output = fillWorkingState(builder, state, 'planner', policy, toolEvents, lookup, tokenizer);
 */
export function fillWorkingState(
  builder: PacketBuilder,
  state: WorkingState,
  purpose: Purpose,
  policy: PurposePolicy,
  toolEvents: readonly EventRecord[],
  lookup: CitationLookup,
  tokenizer: Tokenizer,
): WorkingStateOutput {
  const rules = INJECTION[purpose];
  const packetState: PacketWorkingState = { state_version: state.state_version };

  for (const field of ['goal', 'constraints', 'slots', 'decisions', 'plan', 'risks', 'tool_evidence'] as const) {
    if (isEmpty(state[field])) continue;
    if (!rules.working_state_fields.includes(field)) {
      builder.omit(
        `working_state.${field}`,
        'not_allowed_for_purpose',
        'working_state',
        `${purpose} packets do not carry ${field} (spec §9)`,
      );
      continue;
    }
    if (LIST_FIELDS.has(field)) {
      const kept =
        field === 'decisions'
          ? offerNewestFirst(
              builder,
              state.decisions,
              'working_state.decisions',
              'wm.decisions',
              itemText.decision,
              lookup,
            )
          : field === 'risks'
            ? offerNewestFirst(builder, state.risks, 'working_state.risks', 'wm.risks', itemText.risk, lookup)
            : offerNewestFirst(
                builder,
                state.tool_evidence,
                'working_state.tool_evidence',
                'wm.tool_evidence',
                itemText.toolEvidence,
                () => [],
              );
      if (kept.length > 0) (packetState as Record<string, unknown>)[field] = kept;
      continue;
    }
    const taken = builder.offer({
      item: `working_state.${field}`,
      section: 'working_state',
      rule: `wm.${field}`,
      forms: fieldForms(field as 'goal' | 'constraints' | 'slots' | 'plan', state, tokenizer),
      text: fieldText(field as 'goal' | 'constraints' | 'slots' | 'plan'),
    });
    if (taken !== undefined && taken.level !== 'ref') (packetState as Record<string, unknown>)[field] = taken.value;
  }

  const open = state.open_loops.filter((loop) => {
    if (loop.status === 'open') return true;
    builder.omit(`open_loops:${loop.question.slice(0, 60)}`, 'closed', 'working_state', 'the loop is closed');
    return false;
  });
  const openLoops = offerNewestFirst(builder, open, 'open_loops', 'wm.open_loops', itemText.openLoop, lookup);

  const lastToolEvidence: ToolEvidence[] = [];
  if (!rules.last_tool_evidence) {
    for (const event of toolEvents) {
      builder.omit(
        `last_tool_evidence:${event.id}`,
        'not_allowed_for_purpose',
        'working_state',
        `${purpose} packets carry no tool evidence (spec §3.1)`,
      );
    }
  } else {
    for (const event of toolEvents.slice(0, policy.tool_evidence)) {
      const toolName =
        typeof event.origin_metadata['tool_name'] === 'string' ? event.origin_metadata['tool_name'] : 'tool';
      const text = contentText(event.content);
      const whole = `${toolName}: ${text}`;
      // Shown whole, the line is the event's handle and text (their tokens kept with its row) around
      // the tool's name: only the name is counted.
      const line = itemLine.toolResult(event.id, toolName, text);
      const wholeTokens =
        text !== '' && joinLine(line) === itemText.toolEvidence({ ref: event.id, summary: whole })
          ? builder.recordTokens(event, line)
          : undefined;
      const forms = textForms(text, tokenizer, { raw: 120, quote: 40, summary: 12 }, undefined, { wholeTokens }).map(
        (form) =>
          lazyForm(form.level, () => ({
            ref: event.id,
            summary: form.value === '' ? toolName : `${toolName}: ${form.value}`,
          })),
      );
      const taken = builder.offer({
        item: `last_tool_evidence:${event.id}`,
        section: 'working_state',
        rule: 'events.latest_tool_results',
        forms,
        text: itemText.toolEvidence,
        cost: (evidence) =>
          wholeTokens !== undefined && evidence.summary === whole
            ? builder.lineCost(line, wholeTokens)
            : builder.cost(itemText.toolEvidence(evidence)),
        cites: [citationOf(event)],
      });
      if (taken !== undefined) lastToolEvidence.push(taken.value);
    }
    lastToolEvidence.reverse();
  }
  return { working_state: packetState, open_loops: openLoops, last_tool_evidence: lastToolEvidence };
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

function offerNewestFirst<T extends object>(
  builder: PacketBuilder,
  items: readonly T[],
  part: string,
  rule: string,
  text: (item: T) => string,
  lookup: CitationLookup,
): T[] {
  const kept: Array<{ index: number; value: T }> = [];
  for (let index = items.length - 1; index >= 0; index -= 1) {
    const item = items[index]!;
    const taken = builder.offer({
      item: `${part}[${index}]`,
      section: 'working_state',
      rule,
      forms: [{ level: 'raw', value: item }],
      text,
      cites: lookup((item as { evidence_id?: string }).evidence_id),
    });
    if (taken !== undefined) kept.push({ index, value: taken.value });
  }
  return kept.sort((a, b) => a.index - b.index).map((entry) => entry.value);
}
