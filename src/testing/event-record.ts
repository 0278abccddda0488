// A complete event record for tests that talk to storage or the summarizer directly, and the write
// that appends one.

import type { EventRecord, WriteOp } from '../index.js';
import { newId } from '../index.js';
import { searchText } from '../util/segment.js';

/**
 * An event of tenant t1, user u1, agent a1, session s1, with any field overridden.
 *
 * @example
 * eventRecord({ content: 'hello', sensitivity: 'secret' })
 */
export function eventRecord(overrides: Partial<EventRecord> = {}): EventRecord {
  const ts = overrides.ts ?? '2026-06-01T10:00:00.000Z';
  return {
    id: newId('evt'),
    namespace: 't1/u1/a1',
    thread_id: 's1',
    speaker: null,
    role: 'human',
    content_type: 'text',
    content: 'hello world',
    sensitivity: 'normal',
    embeddable: true,
    embedding_status: 'pending',
    resonance_links: [],
    tags: [],
    snapshot_ref: null,
    created_at: ts,
    expires_at: null,
    origin_metadata: {},
    tenant_id: 't1',
    user_id: 'u1',
    agent_id: 'a1',
    session_id: 's1',
    run_id: 'r1',
    turn_id: 'turn-1',
    kind: 'message',
    marker: null,
    ts,
    recorded_at: '2026-06-01T10:00:00.000Z',
    ...overrides,
  };
}

/**
 * The write that appends an event with the words of its content as its full-text entry (none for a
 * secret event, as commitTurn writes them).
 *
 * @example
 * await storage.write([appendEvent(eventRecord({ content: 'pear tart' }))]);
 */
export function appendEvent(record: EventRecord): WriteOp {
  const text = typeof record.content === 'string' ? record.content : JSON.stringify(record.content);
  return { op: 'append_event', event: record, search_text: record.sensitivity === 'secret' ? null : searchText(text) };
}
