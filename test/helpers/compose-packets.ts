// What the compose tests share: a session seeded with a goal, plan, decisions, risks and an open
// loop, a secret, Chinese text and a tool result; and the check that a packet kept to its budget,
// as both renderings show it.

import { expect } from 'vitest';

import { renderPacket, type Engram, type MemoryPacket } from '../../src/index.js';
import { o200kTokenizer } from '../../src/util/tokenizer.js';
import { scope } from './temp-engram.js';

/** A secret the seeded session holds: it must never reach a packet. */
export const CANARY = 'canary-7f3e9d';

/** Commits the seeded session's two turns (with its working state) under `scope`. */
export async function seedSession(engram: Engram): Promise<void> {
  await engram.commitTurn({
    scope,
    turn_id: 't1',
    messages: [
      { role: 'user', content: 'I prefer concise answers. Our Atlas launch deadline is 2026-12-01.' },
      { role: 'assistant', content: 'Understood, I will keep it short and track the Atlas deadline.' },
      { role: 'user', content: `my vault code is ${CANARY}, keep it safe`, sensitivity: 'secret' },
    ],
    state_patch: {
      expected_version: 0,
      set: { goal: 'Prepare the Atlas launch', slots: { customer: 'ACME' }, constraints: { tone: 'concise' } },
      append: {
        plan: [
          { step: 'Draft the launch note', status: 'done' },
          { step: 'Book the venue', status: 'in_progress' },
        ],
        decisions: [{ statement: 'Launch in the EU region first' }],
        risks: [{ risk: 'Venue may be booked', mitigation: 'Keep a backup venue' }],
        open_loops: [{ question: 'Which venue does ACME prefer?', status: 'open', owner: 'user' }],
      },
    },
  });
  await engram.commitTurn({
    scope,
    turn_id: 't2',
    messages: [{ role: 'user', content: '我更喜欢用中文写技术文档。' }],
    tool_results: [{ tool_name: 'venue_search', content: { venue: 'Hall B', capacity: 300, available: true } }],
  });
}

/**
 * Checks a packet against its budget: the sections add up to what it used, each within its own
 * budget, and the rendered packet, in either format, takes no more than was counted.
 */
export function usedWithin(packet: MemoryPacket): void {
  const report = packet.budget_report;
  expect(report.used_tokens_est).toBeLessThanOrEqual(report.max_tokens);
  const sum = Object.values(report.section_usage).reduce((total, tokens) => total + tokens, 0);
  expect(sum).toBe(report.used_tokens_est);
  const budgets = packet.explain.filters['section_budgets'] as Record<string, number>;
  for (const [section, tokens] of Object.entries(report.section_usage)) {
    if (section !== 'framing') expect(tokens).toBeLessThanOrEqual(budgets[section]!);
  }
  // What the model sees is no more than what was counted, in both renderings, and the title (or
  // root element) is charged at what it really takes in the larger of the two (its pieces are
  // counted apart, which may take a token more where they join).
  for (const format of ['markdown', 'xml'] as const) {
    expect(o200kTokenizer.count(renderPacket(packet, { format }))).toBeLessThanOrEqual(report.used_tokens_est);
  }
  const empty = {
    ...packet,
    short_term: {
      ...packet.short_term,
      working_state: { state_version: 0 },
      rolling_summary: '',
      key_quotes: [],
      conversation_window: [],
      open_loops: [],
      last_tool_evidence: [],
    },
    long_term: { facts: [], preferences: [], procedures: [], episodes: [] },
    insight: { ...packet.insight, hypotheses: [], strategy_sketches: [], patterns: [] },
  } as MemoryPacket;
  const title = Math.max(
    ...(['markdown', 'xml'] as const).map((format) => o200kTokenizer.count(renderPacket(empty, { format }))),
  );
  expect(report.section_usage['framing']).toBeGreaterThanOrEqual(Math.min(title, report.max_tokens));
  expect(report.section_usage['framing']).toBeLessThanOrEqual(title + 2);
}
