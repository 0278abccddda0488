// The procedures of a packet (MemoryPacket v1 §4): the procedures of the request's task type and the
// validated patterns, highest priority first, for the purposes that inject them.

import type { EventRecord } from '../spec/event.js';
import type { MemoryItem } from '../spec/items.js';
import type { Procedure, Purpose } from '../spec/packet.js';
import { describeValue } from '../items/values.js';
import { citationsOf } from './item-citations.js';
import { itemLine, itemText } from './item-text.js';
import type { PacketBuilder } from './packet-builder.js';
import { INJECTION, type PurposePolicy } from './policy.js';

/**
 * Procedures read per compose: enough to choose the policy's top-K by task type and priority.
 *
 * @example
 * await storage.items.list({ ...base, types: ['procedure', 'patterns'], order: 'desc', limit: procedureReadLimit(policy) });
 */
export const procedureReadLimit = (policy: PurposePolicy): number => Math.max(10, policy.procedures * 2);

function priorityOf(item: MemoryItem): number {
  return typeof item.value['priority'] === 'number' ? item.value['priority'] : 0;
}

/**
 * The procedures for a task type (all of them for `generic`) and the validated patterns, highest
 * priority first, then newest.
 *
 * @example
 * const forTask = proceduresForTask(procedures, request.task_type ?? 'generic');
 */
export function proceduresForTask(procedures: readonly MemoryItem[], taskType: string): MemoryItem[] {
  return procedures
    .filter((item) =>
      item.type === 'procedure'
        ? item.key.split(':')[1] === taskType || taskType === 'generic'
        : item.value['validated'] === true,
    )
    .sort((a, b) => priorityOf(b) - priorityOf(a) || (a.recorded_at < b.recorded_at ? 1 : -1));
}

/**
 * Offers each procedure to the builder in order; those the budget takes are the packet's procedures.
 *
 * @example
 * const procedures = fillProcedures(builder, candidates.procedures, candidates.sources, 'planner');
 */
export function fillProcedures(
  builder: PacketBuilder,
  procedures: readonly MemoryItem[],
  sources: ReadonlyMap<string, EventRecord>,
  purpose: Purpose,
): Procedure[] {
  if (!INJECTION[purpose].procedures) return [];
  const out: Procedure[] = [];
  for (const item of procedures) {
    const described = describeValue(item.type, item.value);
    const procedure: Procedure = {
      procedure_id: item.id,
      task_type: item.type === 'procedure' ? item.key.split(':')[1]! : String(item.value['domain'] ?? 'generic'),
      content: item.value,
      priority: Math.trunc(priorityOf(item)),
      sources: item.source_event_ids,
      applicability: {},
    };
    const taken = builder.offer({
      item: `procedures:${item.id}`,
      section: 'procedures',
      rule: `ltm.procedures(task_type ${procedure.task_type}, priority ${procedure.priority})`,
      forms: [{ level: 'raw', value: procedure }],
      text: () => itemText.procedure(item.id, described),
      cost: () => {
        const line = itemLine.procedure(item.id, described);
        return builder.lineCost(line, builder.recordTokens(item, line));
      },
      cites: citationsOf(item, sources),
    });
    if (taken !== undefined) out.push(taken.value);
  }
  return out;
}
