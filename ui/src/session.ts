// The key the inspector is logged in with (GET /v1/whoami): views offer corrections only to keys
// that may write. The server checks the role on every request regardless.

import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

import type { KeyIdentity } from '../../src/client/index.js';

/** The logged-in key, or null while unknown. */
export const WhoamiContext = createContext<KeyIdentity | null>(null);

/** Whether the logged-in key may write memory (true while unknown: the server decides). */
export function useCanWrite(): boolean {
  const who = useContext(WhoamiContext);
  return who === null || who.role !== 'read';
}

/** The logged-in key, or null while unknown. */
export function useWhoami(): KeyIdentity | null {
  return useContext(WhoamiContext);
}
