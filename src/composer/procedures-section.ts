// The procedures of a packet (MemoryPacket v1 §4): the procedures of the request's task type and the
// validated patterns, highest priority first, for the purposes that inject them.

import type { MemoryItem } from '../spec/items.js';
import type { Citation, Procedure, Purpose } from '../spec/packet.js';
import { describeValue } from '../items/values.js';
import { itemLine, itemText } from './item-text.js';
import type { Entry } from './packet-builder.js';
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
 * The procedures offered in order, each with the citations `cites` gives it; for a purpose that
 * carries no procedures, each left out with that reason.
 *
 * @example
 * const placed = builder.place(procedureEntries(candidates.procedures, cites, 'planner'));
 */
export function procedureEntries(
  procedures: readonly MemoryItem[],
  cites: (item: MemoryItem) => Citation[],
  purpose: Purpose,
): Array<Entry<Procedure>> {
  if (!INJECTION[purpose].procedures) {
    return procedures.map((item) => ({
      omit: { part: 'procedures', id: item.id },
      reason: 'not_allowed_for_purpose',
      section: 'procedures',
      detail: `${purpose} packets carry no procedures (spec §9)`,
    }));
  }
  return procedures.map((item) => {
    const described = describeValue(item.type, item.value);
    const procedure: Procedure = {
      procedure_id: item.id,
      task_type: item.type === 'procedure' ? item.key.split(':')[1]! : String(item.value['domain'] ?? 'generic'),
      content: item.value,
      priority: Math.trunc(priorityOf(item)),
      sources: item.source_event_ids,
      applicability: {},
    };
    const line = itemLine.procedure(item.id, described);
    return {
      ref: { part: 'procedures', id: item.id },
      section: 'procedures',
      rule: `ltm.procedures(task_type ${procedure.task_type}, priority ${procedure.priority})`,
      forms: [{ level: 'raw', value: procedure }],
      text: () => itemText.procedure(item.id, described),
      whole: { record: item, line: () => line },
      cites: cites(item),
    };
  });
}
