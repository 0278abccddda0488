// Every current item of a user with an agent, page by page: what a benchmark judges memory by.

import type { Engram, MemoryItem } from '../src/index.js';

/**
 * The user's current items with the agent, all pages.
 *
 * @example
 * const items = await listAllItems(engram, { user_id: 'locomo-conv-26', agent_id: 'locomo-agent' });
 */
export async function listAllItems(engram: Engram, scope: { user_id: string; agent_id: string }): Promise<MemoryItem[]> {
  const items: MemoryItem[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await engram.listItems({ scope, limit: 1000, ...(cursor === undefined ? {} : { cursor }) });
    items.push(...page);
    if (page.length < 1000) return items;
    cursor = page.at(-1)!.id;
  }
}
