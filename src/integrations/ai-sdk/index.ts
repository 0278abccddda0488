// engram/ai-sdk: Engram for the Vercel AI SDK (ai 6). A middleware that gives any language model
// the user's memory and records every turn, and tools that let a model search and edit it.

export { engramMiddleware, withEngram, type EngramMiddlewareOptions, type EngramPhase } from './middleware.js';
export {
  memoryTools,
  type ForgetInput,
  type MemoryChange,
  type MemoryHit,
  type MemoryTools,
  type MemoryToolScope,
  type MemoryToolsOptions,
  type RememberInput,
  type SearchMemoryInput,
} from './tools.js';
export type { EngramSource } from '../memory-port.js';
export type { EngramCallOptions } from './call-scope.js';
