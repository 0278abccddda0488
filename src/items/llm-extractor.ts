// The LLM extractor: renders the versioned extract-items prompt from the events of a turn, asks a
// StructuredModel for item candidates, and keeps only the candidates that pass the key rules and cite
// events it was shown; their values come from the model's pairs (llm-values.ts) and their provenance
// names the model. Bad output never throws here: it is dropped (with the reason) or reported.

import { Ajv2020 } from 'ajv/dist/2020.js';

import { ValidationError, type ValidationIssue } from '../spec/errors.js';
import type {
  ExtractionEvent,
  ExtractionInput,
  Extractor,
  ItemCandidate,
  MemoryType,
  Salience,
} from '../spec/items.js';
import type { StructuredFailure, StructuredModel, StructuredRequest, StructuredResult } from '../spec/providers.js';
import { issuesOf } from '../spec/schema-check.js';
import { inputIssues } from '../spec/validators.js';
import { assertKey } from './keys.js';
import { factKey, profileFactCount, valueFromPairs } from './llm-values.js';

import extractItemsPrompt from './prompts/extract-items.v2.json' with { type: 'json' };

/** The request the extractor makes (see StructuredRequest in src/spec/providers.ts). */
export type StructuredCall = StructuredRequest;

/** Why the model's answers were not used. */
export type ExtractionFailure = StructuredFailure;

/**
 * The validate-and-retry-once call. `generateStructured` from src/providers/llm/generate-structured.ts
 * is the implementation; it is passed in because src/items may not import src/providers (layering),
 * so src/runtime wires the two together.
 */
export type GenerateStructuredFn = (model: StructuredModel, call: StructuredCall) => Promise<StructuredResult>;

/** A candidate the model proposed that was dropped, with why. */
export interface DroppedItem {
  /** Its index in the model's `items`. */
  index: number;
  item: unknown;
  issues: ValidationIssue[];
}

/** The retry wrapper to call through, the reporting hooks and the size caps. */
export interface LlmExtractorOptions {
  /** Pass `generateStructured` (src/providers/llm/generate-structured.ts). */
  generate: GenerateStructuredFn;
  /** Called once per extraction whose two answers were both unusable; the extraction then returns []. */
  onFailure?: (failure: ExtractionFailure) => void;
  /** Called once per extraction that dropped candidates, with each one and why. */
  onDropped?: (dropped: DroppedItem[]) => void;
  /** Most events shown to the model, the first ones in log order (default 40). */
  maxEvents?: number;
  /** Most known keys shown to the model (default 200). */
  maxKnownKeys?: number;
}

interface ModelItem {
  action: 'upsert' | 'retract';
  type: MemoryType;
  key: string;
  value: Array<{ k: string; v: string }>;
  confidence: number;
  gate: 'must' | 'may';
  source_event_ids: string[];
  salience: Salience | null;
}

/** The rule every LLM candidate names, and the extractor's name: the prompt's id and version. */
export const LLM_EXTRACTION_RULE = `llm:${extractItemsPrompt.id}@${extractItemsPrompt.version}`;
// A safety cap against one huge tool output, not a token budget: budgets are counted in tokens.
const MAX_EVENT_TEXT_CHARS = 2_000;
const DEFAULT_MAX_EVENTS = 40;
const DEFAULT_MAX_KNOWN_KEYS = 200;

/**
 * An Extractor that asks a language model for MemoryTypes v0.1 candidates with the versioned
 * extract-items prompt, retrying one bad answer, and returns only candidates that pass validation.
 * Transport errors (a typed EngramError) still reject: the caller decides whether to go on with rules only.
 *
 * @example
 * const extractor = createLlmExtractor(model, { generate: generateStructured, onFailure: (f) => log(f) });
 * const candidates = await extractor.extract({ events, known_keys: ['pref:writing:tone'] });
 */
export function createLlmExtractor(model: StructuredModel, options: LlmExtractorOptions): Extractor {
  const validators = compileValidators();
  const maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
  const maxKnownKeys = options.maxKnownKeys ?? DEFAULT_MAX_KNOWN_KEYS;
  return {
    specificationVersion: 'v1',
    name: LLM_EXTRACTION_RULE,
    async extract(input: ExtractionInput): Promise<ItemCandidate[]> {
      const events = input.events.slice(0, maxEvents);
      if (events.length === 0) return [];
      const result = await options.generate(model, {
        system: extractItemsPrompt.system,
        prompt: renderExtractionPrompt(events, (input.known_keys ?? []).slice(0, maxKnownKeys)),
        schema: extractItemsPrompt.output_schema,
        schemaName: extractItemsPrompt.id,
        validate: validators.envelope,
      });
      if (!result.ok) {
        options.onFailure?.(result.failure);
        return [];
      }
      const shown = new Map(events.map((event) => [event.event_id, event.ts]));
      const items = (result.object as { items: unknown[] }).items;
      const candidates: ItemCandidate[] = [];
      const dropped: DroppedItem[] = [];
      items.forEach((item, index) => {
        const issues = validators.item(item, index, shown);
        if (issues.length === 0) candidates.push(toCandidate(item as ModelItem, model.modelId, shown));
        else dropped.push({ index, item, issues });
      });
      if (dropped.length > 0) options.onDropped?.(dropped);
      return candidates;
    },
  };
}

/**
 * The user prompt for a list of events: the data file's template with the events as numbered JSON
 * lines (each text cut at 2,000 characters) and the known keys one per line.
 *
 * @example
 * renderExtractionPrompt([{ event_id: 'evt_1', kind: 'message', role: 'user', text: 'Use tabs.', ts }], [])
 */
export function renderExtractionPrompt(events: readonly ExtractionEvent[], knownKeys: readonly string[]): string {
  const lines = events.map((event, index) => `[${index + 1}] ${JSON.stringify(eventLine(event))}`).join('\n');
  const keys = knownKeys.length === 0 ? '(none)' : knownKeys.map((key) => `- ${key}`).join('\n');
  // One pass, so a placeholder written inside an event's text is never expanded.
  return extractItemsPrompt.user_template.replace(/\{\{(events|known_keys)\}\}/gu, (_, name: string) =>
    name === 'events' ? lines : keys,
  );
}

function eventLine(event: ExtractionEvent): Record<string, string> {
  const line: Record<string, string> = {
    event_id: event.event_id,
    role: event.role,
    ts: event.ts,
    text: capText(event.text),
  };
  if (event.tool_name !== undefined) line['tool_name'] = event.tool_name;
  if (event.tool_status !== undefined) line['tool_status'] = event.tool_status;
  return line;
}

/** A text cut at 2,000 characters (never inside a surrogate pair), marked with an ellipsis when cut. */
export function capText(text: string): string {
  if (text.length <= MAX_EVENT_TEXT_CHARS) return text;
  const last = text.charCodeAt(MAX_EVENT_TEXT_CHARS - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? MAX_EVENT_TEXT_CHARS - 1 : MAX_EVENT_TEXT_CHARS;
  return `${text.slice(0, end)}…`;
}

/**
 * Two checks from the prompt's output schema: the envelope (`{ items: [...] }`, whose failure is
 * retried) and one item (whose failure drops that item only, so one bad item costs no retry).
 */
function compileValidators(): {
  envelope: (value: unknown) => ValidationIssue[];
  item: (value: unknown, index: number, shownIds: ReadonlyMap<string, string>) => ValidationIssue[];
} {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  const outputSchema = extractItemsPrompt.output_schema;
  const envelope = ajv.compile({ ...outputSchema, properties: { items: { type: 'array' } } });
  const item = ajv.compile<ModelItem>(outputSchema.properties.items.items);
  return {
    // The input rules first: the answer's text is stored (a U+0000 or a lone surrogate is no memory).
    envelope: (value) => {
      const input = inputIssues(value);
      if (input.length > 0) return input;
      return envelope(value) ? [] : issuesOf(envelope.errors);
    },
    item: (value, index, shownIds) => {
      const field = `items[${index}]`;
      if (!item(value))
        return issuesOf(item.errors).map((issue) => ({
          ...issue,
          field: issue.field === '' ? field : `${field}.${issue.field}`,
        }));
      return checkItem(value, field, shownIds);
    },
  };
}

/** The rules the schema cannot carry in strict mode: ranges, key rules, cited events, a value to write. */
function checkItem(item: ModelItem, field: string, shownIds: ReadonlyMap<string, string>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const inUnitRange = (value: number) => Number.isFinite(value) && value >= 0 && value <= 1;
  if (!inUnitRange(item.confidence))
    issues.push({ field: `${field}.confidence`, rule: 'range', message: 'must be from 0 to 1' });
  for (const [name, value] of Object.entries(item.salience ?? {})) {
    if (!inUnitRange(value))
      issues.push({ field: `${field}.salience.${name}`, rule: 'range', message: 'must be from 0 to 1' });
  }
  try {
    assertKey(item.type, item.key, `${field}.key`);
  } catch (error) {
    if (!ValidationError.isInstance(error)) throw error;
    issues.push(...error.issues);
  }
  if (item.source_event_ids.length === 0) {
    issues.push({ field: `${field}.source_event_ids`, rule: 'required', message: 'must cite at least one event' });
  }
  item.source_event_ids.forEach((id, index) => {
    if (!shownIds.has(id)) {
      issues.push({
        field: `${field}.source_event_ids[${index}]`,
        rule: 'unknown_event_id',
        message: `${JSON.stringify(id)} is not one of the given events`,
      });
    }
  });
  if (item.value.some((pair) => pair.k.trim() === ''))
    issues.push({ field: `${field}.value`, rule: 'value_pair', message: 'every pair needs a non-empty k' });
  if (item.action === 'upsert' && item.value.length === 0)
    issues.push({ field: `${field}.value`, rule: 'required', message: 'an upsert needs a value' });
  if (item.type === 'profile') issues.push(...profileIssues(item, field));
  return issues;
}

const FACT_KEY = /^[^:\s]+(?::[^:\s]+)*$/u;

/** A profile item names facts (a retraction, the facts that ended), each with a key of the rules' form. */
function profileIssues(item: ModelItem, field: string): ValidationIssue[] {
  if (profileFactCount(item.value) === 0) {
    return [
      {
        field: `${field}.value`,
        rule: 'required',
        message: 'a profile item needs at least one fact pair (a retraction: the facts that ended)',
      },
    ];
  }
  const bad = item.value.findIndex((pair) => !FACT_KEY.test(factKey(pair.k)));
  return bad === -1
    ? []
    : [
        {
          field: `${field}.value[${bad}].k`,
          rule: 'fact_key',
          message: 'must be a fact name like location or family:wife',
        },
      ];
}

/**
 * The candidate of a valid item. Preferences and profile facts hold from when the events state them,
 * as the rules' do; the provenance names the model.
 */
function toCandidate(item: ModelItem, modelId: string, shown: ReadonlyMap<string, string>): ItemCandidate {
  const sources = [...new Set(item.source_event_ids)];
  const stated = sources
    .map((id) => shown.get(id)!)
    .sort()
    .at(-1)!;
  const { action, value } = valueFromPairs(item.type, item.key, item.action, item.value, stated.slice(0, 10));
  return {
    action,
    type: item.type,
    key: item.key,
    value,
    confidence: item.confidence,
    rule: LLM_EXTRACTION_RULE,
    gate: item.gate,
    source_event_ids: sources,
    ...(item.salience === null ? {} : { salience: item.salience }),
    ...(action === 'upsert' && (item.type === 'preferences' || item.type === 'profile') ? { valid_from: stated } : {}),
    provenance: { extractor: 'llm', model: modelId },
  };
}
