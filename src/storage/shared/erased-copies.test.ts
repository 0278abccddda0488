// Redacting a build that quoted erased data, entry by entry, and trimming the sources of an item that stays.

import { describe, expect, it } from 'vitest';

import type { MemoryPacket } from '../../spec/packet.js';
import type { ContextBuild } from '../../spec/storage.js';
import { newId } from '../../util/ids.js';
import { REDACTED_TEXT, redactBuild, withoutErasedSources } from './erased-copies.js';

const gone = newId('evt');
const kept = newId('evt');
const item = newId('mem');
const why = { at: '2026-06-02T09:00:00.000Z', erased: 'session' } as const;

function buildOf(packet: Record<string, unknown>, selected: string[] = []): ContextBuild {
  return {
    id: newId('ctx'),
    tenant_id: 't1',
    user_id: 'u1',
    agent_id: 'a1',
    session_id: 's2',
    run_id: 'r2',
    purpose: 'planner',
    request: {},
    as_of: '2026-06-01T10:00:00.000Z',
    selected,
    packet_hash: 'sha256:0',
    packet: packet as unknown as MemoryPacket,
    created_at: '2026-06-01T10:00:00.000Z',
  };
}

describe('redactBuild', () => {
  it('drops the entries that stand for an erased id and takes erased ids out of the lists that name them', () => {
    const packet = {
      key_quotes: [
        { evidence_id: gone, quote: 'the erased words' },
        { evidence_id: kept, quote: 'kept words' },
      ],
      facts: [{ fact_id: item, value: { name: 'vim' }, sources: [gone, kept] }],
      selected: [`key_quotes:${gone}: cue.full_text(rank 1)`, `facts:${item}: ltm.always`],
      deep: { note: `quoted from ${gone}` },
    };
    const redacted = redactBuild(buildOf(packet, [gone, kept, item]), new Set([gone]), why)!;
    expect(redacted.packet).toEqual({
      key_quotes: [{ evidence_id: kept, quote: 'kept words' }],
      facts: [{ fact_id: item, value: { name: 'vim' }, sources: [kept] }],
      selected: [`facts:${item}: ltm.always`],
      deep: { note: REDACTED_TEXT },
    });
    expect(redacted.selected).toEqual([kept, item]);
    expect(redacted.redactions).toEqual([{ ...why, removed_entries: 4, removed_ids: 1 }]);
  });

  it('leaves a build that cites nothing erased alone', () => {
    expect(
      redactBuild(buildOf({ key_quotes: [{ evidence_id: kept, quote: 'kept' }] }, [kept]), new Set([gone]), why),
    ).toBeNull();
  });

  it('adds to the redactions an earlier erase recorded', () => {
    const first = redactBuild(
      buildOf({ quotes: [{ evidence_id: gone }, { evidence_id: kept }] }, [gone, kept]),
      new Set([gone]),
      why,
    )!;
    const second = redactBuild(first, new Set([kept]), { ...why, at: '2026-06-03T09:00:00.000Z' })!;
    expect(second.redactions?.map((redaction) => redaction.at)).toEqual([
      '2026-06-02T09:00:00.000Z',
      '2026-06-03T09:00:00.000Z',
    ]);
    expect(second.packet).toEqual({ quotes: [] });
  });
});

describe('withoutErasedSources', () => {
  it('keeps the sources and evidence that stay', () => {
    const refs = [
      { kind: 'event' as const, ref: gone },
      { kind: 'url' as const, ref: gone },
      { kind: 'event' as const, ref: kept },
    ];
    expect(withoutErasedSources({ source_event_ids: [gone, kept], evidence_refs: refs }, new Set([gone]))).toEqual({
      source_event_ids: [kept],
      evidence_refs: refs.slice(1),
    });
    expect(withoutErasedSources({ source_event_ids: [kept], evidence_refs: [] }, new Set([gone]))).toBeNull();
  });
});
