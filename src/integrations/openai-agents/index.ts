// `engram/openai-agents`: the OpenAI Agents SDK's Session over Engram's episodic log, and the
// agent's instructions with the packet Engram composes. Needs `@openai/agents-core` (installed with
// `@openai/agents`).

export { EngramSession, type EngramSessionOptions, type SessionComposeRequest } from './engram-session.js';
export { memoryInstructions, type MemoryInstructionsRequest } from './memory-instructions.js';
export type { ComposedMemory, EngramSource } from '../memory-port.js';
