// The provider interfaces: embedding models and structured-output language models. They are small
// and versioned; implementers provide `do*` methods and callers use the wrappers in src/providers,
// which batch, validate, retry and record.

/**
 * Who waits on an embedding call: `interactive` (a caller on the request path, such as a query) or
 * `background` (the worker's backlog). A model with a queue serves interactive calls first; one
 * without may ignore it.
 *
 * @example
 * await model.doEmbed({ values: ['what tone do I like?'], priority: 'interactive' });
 */
export type EmbeddingPriority = 'interactive' | 'background';

/**
 * Turns texts into vectors.
 *
 * @example
 * const { embeddings } = await model.doEmbed({ values: ['hello'] });
 */
export interface EmbeddingModel {
  readonly specificationVersion: 'v1';
  /** For example `local-use-lite` or `openai-compatible`. */
  readonly provider: string;
  readonly modelId: string;
  readonly dimensions: number;
  /** Most texts one doEmbed call accepts. */
  readonly maxBatchSize: number;
  /** True when texts leave this machine: private events are then not sent unless allowed. */
  readonly remote: boolean;
  /** `priority` defaults to `interactive`. */
  doEmbed(input: {
    values: string[];
    signal?: AbortSignal;
    priority?: EmbeddingPriority;
  }): Promise<{ embeddings: Float32Array[] }>;
  /**
   * How much of a text the model can read, from 0 to 1: a model whose vocabulary holds no Chinese
   * reads none of a Chinese question, and its vector of it tells little apart. Compose gives meaning
   * more weight when words find a question poorly only as far as the model can read it. Optional: a
   * model without it reads every text whole.
   */
  coverage?(text: string): number;
  /**
   * Releases what the model holds (a thread, connections); calls after it fail. Optional: a model
   * that holds nothing has none. An Engram closes the model it created from its configuration, not
   * one it was given.
   */
  close?(): Promise<void>;
}

import type { ValidationIssue } from './errors.js';

/** A JSON Schema (draft 2020-12 or draft-07) describing the object a model must return. */
export type JsonSchema = Record<string, unknown>;

/** What to ask a structured model for, and how to tell a good answer. */
export interface StructuredRequest {
  system: string;
  prompt: string;
  schema: JsonSchema;
  schemaName: string;
  /**
   * Ask the provider to enforce the schema exactly (OpenAI's strict mode; default true). Strict mode
   * accepts only closed, fully required schemas; pass false for a schema that is not.
   */
  strict?: boolean;
  /** The issues of an answer, empty when it is usable. */
  validate: (value: unknown) => ValidationIssue[];
  signal?: AbortSignal;
}

/** Why a model's answers were not used. */
export interface StructuredFailure {
  /** `not_json`: the last answer was not a JSON object; `invalid`: it broke `validate`. */
  reason: 'not_json' | 'invalid';
  attempts: number;
  /** The last answer as the model wrote it, at most 2,000 characters. */
  raw: string;
  /** The issues of the last answer. */
  issues: ValidationIssue[];
}

/** A usable object, or the failure after the retry. */
export type StructuredResult =
  { ok: true; object: unknown; attempts: number } | { ok: false; failure: StructuredFailure };

/**
 * A language model asked for one JSON object that follows a schema.
 *
 * @example
 * const { object } = await model.doGenerateObject({ system, prompt, schema, schemaName: 'items' });
 */
export interface StructuredModel {
  readonly specificationVersion: 'v1';
  readonly provider: string;
  readonly modelId: string;
  /** True when prompts leave this machine. */
  readonly remote: boolean;
  doGenerateObject(input: {
    system: string;
    prompt: string;
    schema: JsonSchema;
    schemaName: string;
    /** Enforce the schema exactly where the provider can (default true). */
    strict?: boolean;
    signal?: AbortSignal;
  }): Promise<{ object: unknown; raw: string; usage?: { inputTokens?: number; outputTokens?: number } }>;
}
