// What extractors read of a turn: its shareable messages and tool results as plain text (secret
// events, state patches and markers are never extracted), plus structured tool output as data.

import type { EventRecord } from '../spec/event.js';
import type { ExtractionEvent } from '../spec/items.js';
import { contentText } from '../events/content-text.js';
import { isShareable } from '../events/sensitivity.js';
import { packetRole } from '../working-memory/summary.js';
import { ENDING_CUE } from './rules/endings.js';
import { PLAN_CUE } from './rules/plans.js';
import { STATUS_CUE } from './rules/task-status.js';
import { ZH_STATUS_CUE } from './rules/zh-tasks.js';

/**
 * The extractable events among `events`, in order.
 *
 * @example
 * extractionEvents(turnEvents).map((event) => event.role) // ['user', 'assistant', 'tool']
 */
export function extractionEvents(events: readonly EventRecord[]): ExtractionEvent[] {
  const out: ExtractionEvent[] = [];
  for (const event of events) {
    if (!isShareable(event) || (event.kind !== 'message' && event.kind !== 'tool_result')) continue;
    if (event.kind === 'message' && event.role === 'system') continue;
    const extraction: ExtractionEvent = {
      event_id: event.id,
      kind: event.kind,
      role: packetRole(event),
      text: contentText(event.content),
      ts: event.ts,
    };
    if (event.kind === 'tool_result') {
      const toolName = event.origin_metadata['tool_name'];
      const status = event.origin_metadata['status'];
      if (typeof toolName === 'string') extraction.tool_name = toolName;
      if (status === 'ok' || status === 'error') extraction.tool_status = status;
      if (typeof event.content === 'object') extraction.data = event.content;
    }
    out.push(extraction);
  }
  return out;
}

// Words that may refer back to something already remembered: a denial, or a task's status change;
// the English rules' own cues for a task done ("I renewed my passport"), a fact ended ("I sold my car")
// and a plan moved or called off ("the trip is off").
const BACK_REFERENCE_CUES =
  /\b(no longer|not true|isn'?t true|forget|scratch that|take that back|ignore that|any ?more|not anymore|wrong|actually|never mind|cancel(?:led)?|done|finished|completed|complete|blocked|shipped|resolved)\b|不再|已经不|忘掉|忘记|不对|错了|取消|算了|完成|做完|搞定|阻塞|卡住/iu;

/**
 * True when a turn may refer back to something remembered (a denial, a task's status change, a
 * fact ended, a plan moved or called off), so the scope's known keys are worth loading.
 *
 * @example
 * mayReferBack([{ text: "That's no longer true" }]) // true
 */
export function mayReferBack(events: readonly Pick<ExtractionEvent, 'text'>[]): boolean {
  return events.some((event) => {
    if (BACK_REFERENCE_CUES.test(event.text) || ZH_STATUS_CUE.test(event.text)) return true;
    const lower = event.text.toLowerCase();
    return STATUS_CUE.test(lower) || ENDING_CUE.test(lower) || PLAN_CUE.test(lower);
  });
}
