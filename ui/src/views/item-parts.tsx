// How an item reads in lists and panels: its status badges (a task's own status, a key a pending
// review disputes), its validity, and which of a user's items reviews dispute.

import type { JSX } from 'preact';

import { api, query, type Page } from '../api.js';
import type { CandidateRecord, ItemRecord } from '../../../src/client/index.js';
import { Badge, StatusBadge, Time, useLoad } from '../ui.js';

/** Status badges of an item: its status, a task's own status, and whether a review disputes it. */
export function ItemStatus({ item, disputed }: { item: ItemRecord; disputed: boolean }): JSX.Element {
  const task = item.type === 'tasks' && typeof item.value['status'] === 'string' ? item.value['status'] : undefined;
  return (
    <span class="statuses">
      <StatusBadge status={item.status} />
      {task === undefined ? null : (
        <Badge
          tone={task === 'done' ? 'good' : task === 'cancelled' ? 'muted' : 'info'}
          title="The task's own status"
        >{`task ${task}`}</Badge>
      )}
      {disputed ? (
        <Badge tone="bad" title="A pending review says this contradicts another item">
          disputed
        </Badge>
      ) : null}
    </span>
  );
}

/** Validity as "from – to" (open ends shown as such). */
export function Validity({ item }: { item: Pick<ItemRecord, 'valid_from' | 'valid_to'> }): JSX.Element {
  if (item.valid_from === null && item.valid_to === null) return <span class="muted">always</span>;
  return (
    <span>
      {item.valid_from === null ? '…' : <Time at={item.valid_from} />} –{' '}
      {item.valid_to === null ? 'now' : <Time at={item.valid_to} />}
    </span>
  );
}

/** The items of the user that pending contradiction reviews dispute. */
export function useDisputed(userId: string): Set<string> {
  const reviews = useLoad(
    () =>
      userId === ''
        ? Promise.resolve({ items: [], next_cursor: null })
        : api<Page<CandidateRecord>>(
            'GET',
            `/v1/review${query({ user_id: userId, status: ['pending'], kind: ['contradiction'], limit: 1000 })}`,
          ),
    [userId],
  );
  return new Set((reviews.data?.items ?? []).flatMap((candidate) => candidate.item_ids));
}
