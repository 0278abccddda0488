// A readable view of a MemoryPacket for the terminal: each short-term part with its citations,
// then the budget report as one bar per section (used against allowed) and what was left out.

import { speakersOf, type MemoryPacket } from '../index.js';

const BAR = 24;

function bar(used: number, allowed: number): string {
  const filled = allowed <= 0 ? 0 : Math.min(BAR, Math.round((used / allowed) * BAR));
  return `${'█'.repeat(filled)}${'░'.repeat(BAR - filled)}`;
}

/** The budget report as aligned bars, one per section. */
export function formatBudget(packet: MemoryPacket): string[] {
  const report = packet.budget_report;
  const allowed = (packet.explain.filters['section_budgets'] ?? packet.meta.budget.per_section) as Record<
    string,
    number
  >;
  const lines = [`Budget: ${report.used_tokens_est} of ${report.max_tokens} tokens (o200k)`];
  for (const [section, used] of Object.entries(report.section_usage)) {
    const limit = allowed[section] ?? 0;
    lines.push(`  ${section.padEnd(19)} ${bar(used, limit)} ${String(used).padStart(5)} / ${limit}`);
  }
  for (const step of report.degradations) lines.push(`  degraded  ${step.action} (${step.reason})`);
  for (const omission of packet.explain.omitted) {
    lines.push(
      `  omitted   ${omission.item}: ${omission.reason}${typeof omission['detail'] === 'string' ? ` (${omission['detail']})` : ''}`,
    );
  }
  return lines;
}

/** The packet's injected content, readable. */
export function formatPacket(packet: MemoryPacket): string[] {
  const { meta, short_term: shortTerm } = packet;
  const lines = [
    `MemoryPacket v1 · purpose ${meta.purpose} · ${meta.scope.tenant_id}/${meta.scope.user_id}/${meta.scope.session_id} · ${meta.generated_at}`,
  ];
  const state = shortTerm.working_state;
  lines.push('', `Working state (version ${state.state_version})`);
  if (state.goal) lines.push(`  goal: ${state.goal}`);
  for (const field of ['slots', 'constraints'] as const)
    if (state[field] !== undefined) lines.push(`  ${field}: ${JSON.stringify(state[field])}`);
  for (const step of state.plan ?? []) lines.push(`  plan: [${step.status}] ${step.step}`);
  for (const decision of state.decisions ?? [])
    lines.push(`  decision: ${decision.statement} [${decision.evidence_id ?? '-'}]`);
  for (const risk of state.risks ?? [])
    lines.push(`  risk: ${risk.risk}${risk.mitigation ? ` → ${risk.mitigation}` : ''}`);
  for (const loop of shortTerm.open_loops ?? [])
    lines.push(`  open loop: ${loop.question} [${loop.evidence_id ?? '-'}]`);
  for (const evidence of shortTerm.last_tool_evidence ?? [])
    lines.push(`  tool evidence: ${evidence.summary} [${evidence.ref}]`);
  lines.push(
    '',
    'Rolling summary',
    ...(shortTerm.rolling_summary === ''
      ? ['  (empty)']
      : shortTerm.rolling_summary.split('\n').map((line) => `  ${line}`)),
  );
  // Who said what, where the citations name a speaker: `Caroline, user`.
  const speakers = speakersOf(packet.citations);
  const saidBy = (id: string, role: string) => [speakers.get(id), role].filter(Boolean).join(', ');
  if ((shortTerm.key_quotes ?? []).length > 0) lines.push('', 'Key quotes');
  for (const quote of shortTerm.key_quotes ?? []) {
    lines.push(
      quote.quote === ''
        ? `  (reference only, over budget) [${quote.evidence_id}]`
        : `  "${quote.quote}" (${saidBy(quote.evidence_id, quote.role ?? 'user')}) [${quote.evidence_id}]`,
    );
  }
  if ((shortTerm.conversation_window ?? []).length > 0) lines.push('', 'Conversation window');
  for (const message of shortTerm.conversation_window ?? [])
    lines.push(`  ${saidBy(message.evidence_id, message.role)}: ${message.content} [${message.evidence_id}]`);
  const longTerm = packet.long_term;
  if (longTerm.facts.length > 0) lines.push('', 'Facts');
  for (const fact of longTerm.facts)
    lines.push(
      `  ${fact.fact_key}${fact.status === 'disputed' ? ' (disputed)' : ''}: ${fact.notes ?? JSON.stringify(fact.value)} [${fact.fact_id}]`,
    );
  if (longTerm.procedures.length > 0) lines.push('', 'Procedures');
  for (const procedure of longTerm.procedures)
    lines.push(`  ${procedure.task_type}: ${JSON.stringify(procedure.content)} [${procedure.procedure_id}]`);
  if (longTerm.episodes.length > 0) lines.push('', 'Episodes');
  for (const episode of longTerm.episodes) {
    // A dated event's summary opens with its day already.
    const day = episode.time_range.start.slice(0, 10);
    const dated = episode.summary.startsWith(day) ? episode.summary : `${day} ${episode.summary}`;
    lines.push(`  ${dated} [${episode.episode_id}]`);
  }
  for (const conflict of packet.explain.conflicts) lines.push(`  conflict: ${conflict.detail}`);
  lines.push('', `Citations: ${packet.citations.length}`, '', ...formatBudget(packet));
  return lines;
}
