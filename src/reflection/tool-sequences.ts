// The ordered tool sequences that recur in a run, for rule-based reflection: the successful tool
// results between user messages, the sequences seen more than once, and the procedure each describes.
// Deterministic: text, roles and times only.

import { slug } from '../items/keys.js';
import { shorten } from '../items/rules/text.js';
import { toolName, topicTerms, type RunUnit } from './segments.js';

/** A tool sequence that recurs in a run: the tool names in order, and the events of each occurrence. */
export interface ToolSequence {
  tools: string[];
  occurrences: Array<{ event_ids: string[]; request: RunUnit | undefined }>;
}

interface ToolStep {
  tool: string;
  event_ids: string[];
  request: RunUnit | undefined;
}

/** Successful tool results in runs between user messages; a tool repeated at once is one step. */
function toolChunks(units: readonly RunUnit[]): ToolStep[][] {
  const chunks: ToolStep[][] = [[]];
  let request: RunUnit | undefined;
  for (const unit of units) {
    if (unit.event.kind === 'message' && unit.event.role === 'human') {
      request = unit;
      chunks.push([]);
      continue;
    }
    const tool = unit.event.kind === 'tool_result' ? toolName(unit.event) : undefined;
    if (tool === undefined || unit.event.origin_metadata['status'] === 'error') continue;
    const chunk = chunks[chunks.length - 1]!;
    const last = chunk[chunk.length - 1];
    if (last?.tool === tool) last.event_ids.push(unit.event.id);
    else chunk.push({ tool, event_ids: [unit.event.id], request });
  }
  return chunks.filter((chunk) => chunk.length >= 2);
}

/**
 * The ordered sequences of 2–6 tools that occur at least twice in a run (without overlapping),
 * longest first; each step of the run belongs to at most one sequence. A run of calls to the same
 * tool counts as one step, failed calls are skipped, and sequences never cross a user message.
 *
 * @example
 * repeatedToolSequences(runUnits(events))[0]?.tools // ['search_docs', 'fetch_page']
 */
export function repeatedToolSequences(units: readonly RunUnit[]): ToolSequence[] {
  const chunks = toolChunks(units).map((chunk) => chunk.slice(0, 200));
  const used = chunks.map((chunk) => chunk.map(() => false));
  const out: ToolSequence[] = [];
  for (let length = 6; length >= 2; length -= 1) {
    const grams = new Map<string, Array<[number, number]>>();
    chunks.forEach((chunk, c) => {
      for (let start = 0; start + length <= chunk.length; start += 1) {
        const gram = chunk
          .slice(start, start + length)
          .map((step) => step.tool)
          .join('\u0000');
        const places = grams.get(gram);
        if (places === undefined) grams.set(gram, [[c, start]]);
        else places.push([c, start]);
      }
    });
    for (const [gram, places] of grams) {
      const taken: Array<[number, number]> = [];
      for (const [c, start] of places) {
        const free = used[c]!.slice(start, start + length).every((flag) => !flag);
        const clear = taken.every(([tc, ts]) => tc !== c || ts + length <= start);
        if (free && clear) taken.push([c, start]);
      }
      if (taken.length < 2) continue;
      for (const [c, start] of taken) used[c]!.fill(true, start, start + length);
      const occurrences = taken.map(([c, start]) => {
        const steps = chunks[c]!.slice(start, start + length);
        return { event_ids: steps.flatMap((step) => step.event_ids), request: steps[0]!.request };
      });
      out.push({ tools: gram.split('\u0000'), occurrences });
    }
  }
  return out;
}

/** The words shared by the requests that started each occurrence of a tool sequence. */
function sharedRequestTerms(requests: ReadonlyArray<RunUnit | undefined>): string[] {
  if (requests.some((request) => request === undefined)) return [];
  const [first, ...rest] = requests.map((request) => topicTerms(request!.text));
  return [...new Set(first ?? [])].filter((term) => rest.every((terms) => terms.includes(term))).slice(0, 3);
}

/**
 * The procedure a recurring tool sequence suggests: a claim ("To handle recipe requests, call
 * search_recipes, then fetch_page."), the task (the words the requests that started it share, if
 * any), and a procedure item value whose steps call the tools in order.
 *
 * @example
 * describeProcedure(sequence).value // { task_type: 'recipe', name: 'search_recipes_fetch_page', steps: ['call search_recipes', 'call fetch_page'] }
 */
export function describeProcedure(sequence: ToolSequence): {
  claim: string;
  task: string | undefined;
  value: { task_type: string; name: string; steps: string[] };
} {
  const shared = sharedRequestTerms(sequence.occurrences.map((occurrence) => occurrence.request));
  const request = sequence.occurrences[0]?.request;
  const task = shared.length > 0 ? shared.join(' ') : undefined;
  const lead =
    task !== undefined
      ? `To handle ${task} requests`
      : request !== undefined
        ? `For requests like "${shorten(request.text.replace(/\s+/g, ' ').trim(), 60)}"`
        : 'For this recurring task';
  const value = {
    task_type: slug(task ?? sequence.tools[0] ?? 'tools', 60),
    name: slug(sequence.tools.join(' '), 60),
    steps: sequence.tools.map((tool) => `call ${tool}`),
  };
  return { claim: `${lead}, call ${sequence.tools.join(', then ')}.`, task, value };
}
