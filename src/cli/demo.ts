// The quick-start demo: commits the example conversation of examples/quickstart (a launch-planning
// session with a tool call, state patches, a secret and a Chinese turn), then composes a packet for
// each purpose and prints it with its budget report.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import {
  describeItem,
  ValidationError,
  type CommitTurnRequest,
  type Engram,
  type MemoryPacket,
  type Purpose,
} from '../index.js';
import { formatBudget, formatPacket } from './format-packet.js';
import { printJson, printLines } from './output.js';

// Both src/cli (run with tsx) and dist/cli sit two folders below the package root.
const EXAMPLE = fileURLToPath(new URL('../../examples/quickstart/turns.json', import.meta.url));

function loadTurns(): CommitTurnRequest[] {
  const parsed = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as unknown;
  if (!Array.isArray(parsed))
    throw ValidationError.of('examples/quickstart/turns.json', 'type', 'must be an array of turns');
  return parsed as CommitTurnRequest[];
}

/**
 * Runs the demo on an open Engram.
 *
 * @example
 * await runDemo(await createEngram(), false);
 */
export async function runDemo(engram: Engram, json: boolean): Promise<void> {
  const turns = loadTurns();
  const results = [];
  for (const turn of turns) results.push(await engram.commitTurn(turn));
  const scope = turns[0]!.scope;
  const packets = {} as Record<Purpose, MemoryPacket>;
  for (const purpose of ['planner', 'tool', 'responder'] as const) {
    packets[purpose] = await engram.compose({
      scope: { ...scope, run_id: scope.run_id },
      purpose,
      cues: { query: 'When is the launch webinar and what tone should announcements use?' },
      budget: { max_tokens: purpose === 'responder' ? 800 : 1200 },
    });
  }
  if (json) return printJson({ commits: results, packets });

  const lines = [`Committed ${turns.length} turns from examples/quickstart/turns.json:`];
  for (const result of results) {
    if (result.replayed) {
      lines.push(`  ${result.turn_id}: already in the store, nothing written`);
      continue;
    }
    const kept = result.gate.filter((decision) => decision.wrote).length;
    lines.push(
      `  ${result.turn_id}: ${result.events.length} events, ${kept} of ${result.gate.length} kept by the retention gate`,
    );
    for (const diff of result.items) lines.push(`      ${diff.action} ${diff.key} v${diff.version}  (${diff.rule})`);
    for (const decision of result.gate.filter((entry) => !entry.wrote))
      lines.push(`      not kept: ${decision.reason}`);
  }
  const items = await engram.items.list({
    scope: { tenant_id: scope.tenant_id, user_id: scope.user_id, agent_id: scope.agent_id },
  });
  lines.push(
    '',
    `Long-term memory now holds ${items.length} current items:`,
    ...items.map((item) => `  ${item.key} v${item.version}: ${describeItem(item)}`),
  );
  lines.push(
    '',
    '── responder packet ──────────────────────────────────────────────',
    ...formatPacket(packets.responder),
  );
  for (const purpose of ['planner', 'tool'] as const) {
    lines.push(
      '',
      `── ${purpose} packet: budget ─────────────────────────────────────`,
      ...formatBudget(packets[purpose]),
    );
  }
  lines.push(
    '',
    'The secret API key of turn-004 is in the log but in no packet, summary or index.',
    `Full JSON: engram compose --tenant ${scope.tenant_id} --user ${scope.user_id} --agent ${scope.agent_id} --session ${scope.session_id} --run ${scope.run_id} --purpose responder --json`,
  );
  printLines(lines);
}
