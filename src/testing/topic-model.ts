// An embedding model for tests that places a text by the topics its words belong to: a question and
// a turn about the same topic point the same way whatever words each uses, so meaning finds what
// words cannot. Deterministic, in process, and it records the queries it was asked (not the
// background lane's texts), so a test can check what was embedded on the request path.

import { EngramError } from '../spec/errors.js';
import type { EmbeddingModel } from '../spec/providers.js';

export interface TopicModelOptions {
  /** Its model id (`test:<id>` is the name its vectors are stored under). */
  modelId?: string;
  /** When it returns true, a query (not a background embedding) fails OVERLOADED, as a busy model does. */
  busy?: () => boolean;
}

/**
 * A model with one axis per topic (a list of words) and one shared axis, so no text is the zero vector.
 *
 * @example
 * const model = topicModel([['doctor', 'dermatologist'], ['car', 'bike']]);
 */
export function topicModel(
  topics: ReadonlyArray<readonly string[]>,
  options: TopicModelOptions = {},
): EmbeddingModel & { queries: string[] } {
  const queries: string[] = [];
  const size = topics.length + 1;
  return {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: options.modelId ?? 'topics',
    dimensions: size,
    maxBatchSize: 16,
    remote: false,
    queries,
    doEmbed: async ({ values, priority }) => {
      if (priority !== 'background') {
        queries.push(...values);
        if (options.busy?.() === true)
          throw new EngramError('OVERLOADED', 'the model is busy', { field: 'embeddings' });
      }
      return {
        embeddings: values.map((text) => {
          const words = text.toLowerCase().split(/[^\p{L}]+/u);
          const vector = new Float32Array(size);
          topics.forEach((topic, index) => {
            vector[index] = words.filter((word) => topic.includes(word)).length;
          });
          vector[topics.length] = 0.05;
          const norm = Math.hypot(...vector);
          return vector.map((value) => value / norm);
        }),
      };
    },
  };
}
