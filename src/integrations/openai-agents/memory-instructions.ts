// The agent's instructions with memory: its own instructions, then the packet Engram composed for
// the user's new input, so what earlier sessions taught reaches the model's system prompt.

import type { EngramSession, SessionComposeRequest } from './engram-session.js';

export interface MemoryInstructionsRequest extends SessionComposeRequest {
  /** The agent's own instructions, placed before the memory. */
  instructions?: string;
}

/**
 * Instructions for an Agent: the given ones, then the rendered packet composed for `query`.
 *
 * @example
 * const agent = new Agent({ name: 'Assistant', instructions: await memoryInstructions(session, { instructions: 'You are helpful.', query: input }) });
 * await run(agent, input, { session });
 */
export async function memoryInstructions(
  session: EngramSession,
  request: MemoryInstructionsRequest = {},
): Promise<string> {
  const { instructions, ...compose } = request;
  const { text } = await session.compose(compose);
  return [instructions, text].filter((part): part is string => part !== undefined && part !== '').join('\n\n');
}
