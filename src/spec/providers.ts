// The provider interfaces: embedding models and structured-output language models. They are small
// and versioned; implementers provide `do*` methods and callers use the wrappers in src/providers,
// which batch, validate, retry and record.

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
  doEmbed(input: { values: string[]; signal?: AbortSignal }): Promise<{ embeddings: Float32Array[] }>;
}

/** A JSON Schema (draft 2020-12 or draft-07) describing the object a model must return. */
export type JsonSchema = Record<string, unknown>;

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
    signal?: AbortSignal;
  }): Promise<{ object: unknown; raw: string; usage?: { inputTokens?: number; outputTokens?: number } }>;
}
