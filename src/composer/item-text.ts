// How each packet item reads when injected into a prompt. Budgets are measured on this text (the
// tokens the model will actually see), not on the JSON envelope, and the renderers use the same
// functions, so what is counted is what is shown.

import type { InsightItem, KeyQuote, WindowMessage } from '../spec/packet.js';
import type { Decision, OpenLoop, PlanStep, Risk, ToolEvidence } from '../spec/working-state.js';

function day(ts: string | undefined): string {
  return ts === undefined ? '' : `, ${ts.slice(0, 10)}`;
}

function ref(id: string | undefined): string {
  return id === undefined ? '' : `[${id}] `;
}

/** One line of text: line breaks inside an item become `; ` so each item stays one list entry. */
function oneLine(text: string): string {
  return text.replace(/\s*\n+\s*/g, '; ');
}

/** An item degraded to its reference keeps a marker, so the model knows there is more at the id. */
function orReference(text: string): string {
  return text === '' ? '(see the cited event)' : oneLine(text);
}

export const itemText = {
  keyQuote: (quote: KeyQuote): string => `${ref(quote.evidence_id)}${quote.role ?? 'user'}${day(quote.ts)}: ${orReference(quote.quote)}`,
  windowMessage: (message: WindowMessage): string =>
    `${ref(message.evidence_id)}${message.role}${day(message.ts)}: ${orReference(message.content)}`,
  toolEvidence: (evidence: ToolEvidence): string => `${ref(evidence.ref)}${oneLine(evidence.summary)}`,
  decision: (decision: Decision): string => `${ref(decision.evidence_id)}Decision: ${decision.statement}`,
  risk: (risk: Risk): string => `Risk: ${risk.risk}${risk.mitigation === undefined ? '' : ` (mitigation: ${risk.mitigation})`}`,
  openLoop: (loop: OpenLoop): string => `${ref(loop.evidence_id)}Open (${loop.owner ?? 'agent'}): ${loop.question}`,
  goal: (goal: string): string => `Goal: ${goal}`,
  object: (label: string, value: Record<string, unknown>): string => `${label}: ${JSON.stringify(value)}`,
  insight: (item: InsightItem): string => {
    const tests = item.tests_suggested ?? [];
    return `[${item.id}] ${item.type} (${item.validation_state}): ${oneLine(item.statement)}${tests.length === 0 ? '' : ` Tests: ${oneLine(tests.join('; '))}`}`;
  },
  plan: (steps: readonly PlanStep[]): string =>
    `Plan:\n${steps.map((step, index) => `${index + 1}. [${step.status}] ${step.step}`).join('\n')}`,
} as const;
