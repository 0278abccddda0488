// Every item of a user with an agent in some statuses (current by default), page by page: what a
// benchmark judges memory by.

import type { Engram, ItemStatus, MemoryItem } from '../src/index.js';

/**
 * The user's items with the agent in some statuses (default: current ones), all pages.
 *
 * @example
 * const items = await listAllItems(engram, { user_id: 'locomo-conv-26', agent_id: 'locomo-agent' });
 */
export async function listAllItems(
  engram: Engram,
  scope: { user_id: string; agent_id: string },
  status: ItemStatus[] = ['active'],
): Promise<MemoryItem[]> {
  const items: MemoryItem[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await engram.items.list({ scope, limit: 1000, status, ...(cursor === undefined ? {} : { cursor }) });
    items.push(...page);
    if (page.length < 1000) return items;
    cursor = page.at(-1)!.id;
  }
}
