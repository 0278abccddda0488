import { describe, expect, it } from 'vitest';

import { ValidationError } from '../spec/errors.js';
import type { EventRecord } from '../spec/event.js';
import { evidenceId, sha256 } from '../util/ids.js';
import { EVENTS_CORPUS, checkId, eventIdsCited, pointerOf, toLedgerEntry, toPointer } from './evidence.js';

function event(
  id: string,
  content: EventRecord['content'],
  sensitivity: EventRecord['sensitivity'] = 'normal',
): EventRecord {
  const at = '2026-01-01T00:00:00.000Z';
  return {
    id,
    namespace: 'default',
    thread_id: null,
    speaker: null,
    role: 'tool',
    content_type: 'tool_output',
    content,
    sensitivity,
    embeddable: true,
    embedding_status: 'pending',
    resonance_links: [],
    tags: [],
    snapshot_ref: null,
    created_at: at,
    expires_at: null,
    origin_metadata: {},
    tenant_id: 'default',
    user_id: 'u',
    agent_id: 'a',
    session_id: 's',
    run_id: 'r',
    turn_id: 't1',
    kind: 'tool_result',
    marker: null,
    ts: at,
    recorded_at: at,
  };
}

const events = new Map([
  ['evt_1', event('evt_1', 'The capital is Lisbon, not Porto.')],
  ['evt_2', event('evt_2', { city: 'Lisbon', temp_c: 21 })],
  ['evt_secret', event('evt_secret', 'api key 123', 'secret')],
]);

function rejection(run: () => unknown): ValidationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

describe('pointerOf: corpus evidence', () => {
  it('derives a deterministic id from corpus, chunk, span and quote', () => {
    const input = { corpus_id: 'docs', chunk_id: 'c1', span: [0, 12] as [number, number], source_id: 'doc-7' };
    const first = pointerOf(input, events);
    expect(first).toEqual({
      evidence_id: evidenceId({ corpus: 'docs', chunk_id: 'c1', span: [0, 12] }),
      chunk_id: 'c1',
      span: [0, 12],
      corpus_id: 'docs',
      source_id: 'doc-7',
      quote_hash: null,
    });
    expect(pointerOf({ ...input }, events).evidence_id).toBe(first.evidence_id);
    expect(first.evidence_id).toMatch(/^evd_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(pointerOf({ ...input, corpus_id: 'other' }, events).evidence_id).not.toBe(first.evidence_id);
    const quoted = pointerOf({ ...input, quote: 'The capital' }, events);
    expect(quoted.quote_hash).toBe(sha256('The capital'));
    expect(quoted.evidence_id).toBe(
      evidenceId({ corpus: 'docs', chunk_id: 'c1', span: [0, 12], quote: 'The capital' }),
    );
    expect(quoted.evidence_id).not.toBe(first.evidence_id);
  });

  it('refuses bad spans, ids and empty quotes with the field and rule', () => {
    const base = { corpus_id: 'docs', chunk_id: 'c1', span: [0, 1] as [number, number] };
    const reversed = rejection(() => pointerOf({ ...base, span: [5, 2] }, events, 'run.evidence[0]'));
    expect(reversed.field).toBe('run.evidence[0].span');
    expect(reversed.message).toContain('start 5 is after end 2');
    expect(rejection(() => pointerOf({ ...base, span: [-1, 2] }, events)).message).toContain('negative');
    expect(rejection(() => pointerOf({ ...base, span: [0.5, 2] }, events)).rule).toBe('span');
    expect(rejection(() => pointerOf({ ...base, span: [1] as unknown as [number, number] }, events)).rule).toBe('span');
    expect(rejection(() => pointerOf({ ...base, chunk_id: '' }, events)).field).toBe('evidence.chunk_id');
    expect(rejection(() => pointerOf({ ...base, corpus_id: 'a\u0000b' }, events)).rule).toBe('identifier');
    expect(rejection(() => pointerOf({ ...base, quote: '' }, events)).field).toBe('evidence.quote');
  });
});

describe('pointerOf: event evidence', () => {
  it('points into the events corpus, defaulting the span to the whole text', () => {
    const whole = pointerOf({ event_id: 'evt_1' }, events);
    expect(whole).toMatchObject({
      chunk_id: 'evt_1',
      corpus_id: EVENTS_CORPUS,
      span: [0, 33],
      source_id: null,
      quote_hash: null,
    });
    expect(whole.evidence_id).toBe(evidenceId({ corpus: 'events', chunk_id: 'evt_1', span: [0, 33] }));
    // Structured content is measured in its text form (contentText): 'city: Lisbon\ntemp_c: 21'.
    expect(pointerOf({ event_id: 'evt_2' }, events).span).toEqual([0, 23]);
  });

  it('locates a quote without a span, and checks a quote against its span', () => {
    const located = pointerOf({ event_id: 'evt_1', quote: 'Lisbon' }, events);
    expect(located.span).toEqual([15, 21]);
    expect(located.quote_hash).toBe(sha256('Lisbon'));
    expect(pointerOf({ event_id: 'evt_1', span: [15, 21], quote: 'Lisbon' }, events).evidence_id).toBe(
      located.evidence_id,
    );
    expect(rejection(() => pointerOf({ event_id: 'evt_1', span: [0, 3], quote: 'Lisbon' }, events)).rule).toBe(
      'quote_mismatch',
    );
    expect(rejection(() => pointerOf({ event_id: 'evt_1', quote: 'Madrid' }, events)).rule).toBe('quote_not_found');
  });

  it('refuses spans outside the text, unknown events and secret events', () => {
    expect(rejection(() => pointerOf({ event_id: 'evt_1', span: [0, 34] }, events)).rule).toBe('span_outside_text');
    expect(pointerOf({ event_id: 'evt_1', span: [33, 33] }, events).span).toEqual([33, 33]);
    expect(rejection(() => pointerOf({ event_id: 'evt_1', span: [3, 1] }, events)).rule).toBe('span');
    const unknown = rejection(() => pointerOf({ event_id: 'evt_404' }, events, 'run.claims[0].evidence[1]'));
    expect(unknown.rule).toBe('unknown_event');
    expect(unknown.field).toBe('run.claims[0].evidence[1].event_id');
    expect(rejection(() => pointerOf({ event_id: 'evt_secret' }, events)).rule).toBe('secret_event');
  });

  it('treats a corpus input naming the events corpus as event evidence', () => {
    const viaCorpus = pointerOf({ corpus_id: 'events', chunk_id: 'evt_1', span: [0, 3] }, events);
    expect(viaCorpus.evidence_id).toBe(pointerOf({ event_id: 'evt_1', span: [0, 3] }, events).evidence_id);
    const unknown = rejection(() => pointerOf({ corpus_id: 'events', chunk_id: 'evt_404', span: [0, 3] }, events));
    expect(unknown.field).toBe('evidence.chunk_id');
    expect(rejection(() => pointerOf({ corpus_id: 'events', chunk_id: 'evt_secret', span: [0, 3] }, events)).rule).toBe(
      'secret_event',
    );
  });
});

describe('eventIdsCited', () => {
  it('lists the events a payload cites, in either form, once each', () => {
    const ids = eventIdsCited({
      evidence: [{ event_id: 'evt_2' }, { corpus_id: 'docs', chunk_id: 'c1', span: [0, 1] }],
      claims: [
        {
          claim_id: 'c',
          status: 'verified',
          statement: 's',
          evidence: [{ corpus_id: 'events', chunk_id: 'evt_1', span: [0, 1] }, { event_id: 'evt_2' }],
        },
      ],
      conflicts: [
        { conflict_id: 'k', description: 'd', side_a: [{ event_id: 'evt_3' }], side_b: [{ event_id: 'evt_1' }] },
      ],
    });
    expect(ids).toEqual(['evt_2', 'evt_1', 'evt_3']);
    expect(eventIdsCited({})).toEqual([]);
  });
});

describe('pointer and ledger shapes', () => {
  it('reduces to the four pointer keys and adds the recording time for the ledger', () => {
    const resolved = pointerOf(
      { corpus_id: 'docs', chunk_id: 'c1', span: [1, 2], quote: 'x', source_id: 'doc' },
      events,
    );
    expect(Object.keys(toPointer(resolved)).sort()).toEqual(['chunk_id', 'corpus_id', 'evidence_id', 'span']);
    expect(toLedgerEntry(resolved, '2026-01-02T00:00:00.000Z')).toEqual({
      ...resolved,
      recorded_at: '2026-01-02T00:00:00.000Z',
    });
    expect(() => checkId('x'.repeat(257), 'f')).toThrow(ValidationError);
  });
});
