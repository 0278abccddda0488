// What engram/ai-sdk needs of Engram: five calls that both an Engram (the library, createEngram)
// and an engram/client client make, so the middleware and tools run embedded or over HTTP alike.

import type {
  CommitTurnRequest,
  ComposeRequest,
  ForgetRequest,
  ItemDiff,
  MemoryPacket,
  RememberRequest,
  SearchHit,
  SearchMemoryRequest,
} from '../../index.js';

/**
 * The calls of Engram this integration makes. An `Engram` from `createEngram` and a client from
 * `createClient` (engram/client) both fit; so does any object with these methods, in tests.
 *
 * @example
 * const engram: EngramBackend = await createEngram();
 * const remote: EngramBackend = createClient({ baseUrl: 'http://127.0.0.1:8787', apiKey });
 */
export interface EngramBackend {
  commitTurn(turn: CommitTurnRequest): Promise<unknown>;
  /** The library answers with the packet; the HTTP client with `{ packet, text? }`. */
  compose(request: ComposeRequest): Promise<MemoryPacket | { packet: MemoryPacket }>;
  searchItems(request: Plain<SearchMemoryRequest>): Promise<SearchHit[]>;
  remember(request: Plain<RememberRequest>): Promise<ItemDiff[]>;
  forget(request: Plain<ForgetRequest>): Promise<ItemDiff[]>;
}

// The request as an anonymous object type: the HTTP client takes any JSON object for these calls
// (`Record<string, unknown>`), which a named interface cannot be passed as.
type Plain<T> = { [K in keyof T]: T[K] };

/**
 * The packet of a compose answer, whichever backend gave it.
 *
 * @example
 * packetOf(await backend.compose(request)).meta.purpose // 'responder'
 */
export function packetOf(answer: MemoryPacket | { packet: MemoryPacket }): MemoryPacket {
  return 'packet' in answer ? answer.packet : answer;
}
