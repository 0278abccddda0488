// Asking the configured LLM for a turn's item candidates, the part the commit (inline mode) and the
// background extraction job share: which events the model may read, and its answer as candidates or
// as the failure record of an answer invalid twice. Transport errors are left to the caller.

import type { EventRecord } from '../spec/event.js';
import type { ExtractionEvent, ItemCandidate } from '../spec/items.js';
import type { StructuredModel } from '../spec/providers.js';
import type { ExtractionFailureRecord } from '../spec/requests.js';
import { createLlmExtractor, LLM_EXTRACTION_RULE } from '../items/llm-extractor.js';
import { generateStructured } from '../providers/llm/generate-structured.js';

/** When the LLM extractor reads a turn: in a background job after the commit, or inside it. */
export type LlmMode = 'background' | 'inline';

/** The model the LLM extractor asks, and whether a remote one may read private events. */
export interface LlmExtraction {
  model: StructuredModel;
  allowPrivateRemote: boolean;
}

/**
 * The extractable events the model may read: a remote model reads private events only if allowed.
 *
 * @example
 * const shown = shownToModel(llm, events, extractionEvents(events));
 */
export function shownToModel(
  llm: LlmExtraction,
  events: readonly EventRecord[],
  extractable: readonly ExtractionEvent[],
): ExtractionEvent[] {
  if (!llm.model.remote || llm.allowPrivateRemote) return [...extractable];
  const privateIds = new Set(events.filter((event) => event.sensitivity === 'private').map((event) => event.id));
  return extractable.filter((event) => !privateIds.has(event.event_id));
}

/** The model's candidates, or why there are none: its answer was invalid twice. */
export interface LlmAnswer {
  candidates: ItemCandidate[];
  failure: ExtractionFailureRecord | null;
}

/**
 * Asks the model about the events it may read. An invalid answer is retried once, then reported as
 * `failure`; a transport error (model down, HTTP error) rejects with its typed EngramError.
 *
 * @example
 * const { candidates, failure } = await askModel(llm, shown, knownKeys);
 */
export async function askModel(
  llm: LlmExtraction,
  shown: readonly ExtractionEvent[],
  knownKeys: readonly string[],
): Promise<LlmAnswer> {
  let failure: ExtractionFailureRecord | null = null;
  const extractor = createLlmExtractor(llm.model, {
    generate: generateStructured,
    onFailure: (reported) => {
      failure = { extractor: extractor.name, model: llm.model.modelId, ...reported };
    },
  });
  const candidates = shown.length === 0 ? [] : await extractor.extract({ events: shown, known_keys: knownKeys });
  return { candidates, failure };
}

/**
 * The failure record of a transport error, as a commit that asks the model inline records it.
 *
 * @example
 * failures.push(transportFailure(llm, error));
 */
export function transportFailure(llm: LlmExtraction, error: unknown): ExtractionFailureRecord {
  return {
    extractor: LLM_EXTRACTION_RULE,
    model: llm.model.modelId,
    reason: (error as Error).message,
    attempts: 1,
    raw: '',
    issues: [],
  };
}
