// `engram/langgraph`: Engram as a LangGraph.js store (namespaces as users, search through Engram's
// hybrid search) and a helper that composes a packet inside a graph node. Needs
// `@langchain/langgraph-checkpoint` (installed with `@langchain/langgraph`).

export { EngramStore, type EngramStoreOptions, type StoreComposeRequest } from './engram-store.js';
export { composeInNode, type ComposeInNodeOptions, type GraphNodeConfig } from './compose-in-node.js';
export { STORE_TAG, itemKeyOf, pathOfKey } from './store-keys.js';
export type { ComposedMemory, EngramSource } from '../memory-port.js';
