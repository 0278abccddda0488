// Prompt text from a MemoryPacket, in Markdown or XML-tagged form. Deterministic, each item carries
// its citation as a handle (the id's last six characters; resolveCitation maps it back), and each
// line reads as item-text.ts says, so what the budget counted is what the model sees. Sections the
// packet left empty (for example by the purpose's rules) are not rendered.

import type { MemoryPacket, InsightItem } from '../spec/packet.js';
import { citationHandle, escapeXmlText, itemText } from './item-text.js';

export type RenderFormat = 'markdown' | 'xml';

interface Block {
  title: string;
  tag: string;
  lines: string[];
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
  const factLine = (fact: (typeof longTerm.facts)[number]) => itemText.fact({ ...fact, notes: fact.notes ?? JSON.stringify(fact.value) });
  const all: Block[] = [
    { title: 'Working state', tag: 'working_state', lines: workingStateLines(packet) },
    { title: 'Open loops', tag: 'open_loops', lines: (shortTerm.open_loops ?? []).map(itemText.openLoop) },
    { title: 'Latest tool evidence', tag: 'tool_evidence', lines: (shortTerm.last_tool_evidence ?? []).map(itemText.toolEvidence) },
    { title: 'Conversation summary', tag: 'summary', lines: shortTerm.rolling_summary === '' ? [] : shortTerm.rolling_summary.split('\n') },
    { title: 'Key quotes', tag: 'key_quotes', lines: (shortTerm.key_quotes ?? []).map(itemText.keyQuote) },
    { title: 'Recent conversation', tag: 'conversation', lines: (shortTerm.conversation_window ?? []).map(itemText.windowMessage) },
    { title: 'Preferences', tag: 'preferences', lines: (longTerm.preferences ?? []).map(factLine) },
    { title: 'Facts', tag: 'facts', lines: longTerm.facts.filter((fact) => !preferenceIds.has(fact.fact_id)).map(factLine) },
    { title: 'Procedures', tag: 'procedures', lines: longTerm.procedures.map((procedure) => itemText.procedure(procedure.procedure_id, `${procedure.task_type}: ${JSON.stringify(procedure.content)}`)) },
    { title: 'Episodes', tag: 'episodes', lines: longTerm.episodes.map(itemText.episode) },
    { title: 'Hypotheses (unconfirmed)', tag: 'hypotheses', lines: insightLines(insight.hypotheses) },
    { title: 'Strategy sketches (unconfirmed)', tag: 'strategy_sketches', lines: insightLines(insight.strategy_sketches) },
    { title: 'Patterns', tag: 'patterns', lines: insightLines(insight.patterns) },
  ];
  return all.filter((block) => block.lines.length > 0);
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
    const body = parts.map((block) => `  <${block.tag}>\n${block.lines.map((line) => `    ${escapeXmlText(line).replace(/\n/g, '\n    ')}`).join('\n')}\n  </${block.tag}>`);
    return `<memory purpose="${purpose}" generated_at="${packet.meta.generated_at}">\n${body.join('\n')}\n</memory>\n`;
  }
  const body = parts.map((block) => `## ${block.title}\n${block.lines.map((line) => (block.tag === 'summary' ? line : `- ${line}`)).join('\n')}`);
  return `# Memory for the ${purpose} (${packet.meta.generated_at})\n\n${body.join('\n\n')}\n`;
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
  const ids = new Set<string>([
    ...packet.citations.map((citation) => citation.id),
    ...packet.long_term.facts.map((fact) => fact.fact_id),
    ...(packet.long_term.preferences ?? []).map((fact) => fact.fact_id),
    ...packet.long_term.procedures.map((procedure) => procedure.procedure_id),
    ...packet.long_term.episodes.map((episode) => episode.episode_id),
    ...[...packet.insight.hypotheses, ...packet.insight.strategy_sketches, ...packet.insight.patterns].map((item) => item.id),
  ]);
  return [...ids].filter((id) => citationHandle(id) === wanted);
}
