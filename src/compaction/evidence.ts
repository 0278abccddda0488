// Evidence pointers: what the agent cites (a span of a corpus chunk, or of an event of its run)
// turned into a deterministic pointer plus the fields of its ledger entry. Event evidence is checked
// against the run's log: the span must lie inside the event's text, and secret events never count.

import type { EvidenceInput, EvidencePointer, LedgerEntry, RunPayload } from '../spec/compaction.js';
import { ValidationError } from '../spec/errors.js';
import type { EventRecord } from '../spec/event.js';
import { contentText } from '../events/content-text.js';
import { isShareable } from '../events/sensitivity.js';
import { evidenceId, sha256 } from '../util/ids.js';

/** The corpus id of the run's episodic log: an event pointer's chunk is the event id. */
export const EVENTS_CORPUS = 'events';

/** A pointer with the ledger fields known when it is resolved (everything but `recorded_at`). */
export type ResolvedEvidence = Omit<LedgerEntry, 'recorded_at'>;

/** Longest ids accepted (as commit-turn-request.schema.json): identifiers 256, chunk ids 512, source ids 2,048. */
export const ID_LIMITS = Object.freeze({ identifier: 256, chunk: 512, source: 2_048 });
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Resolves one piece of evidence. A corpus input keeps its chunk and span; an event input (or a
 * corpus input naming the `events` corpus) must name an event of `events` (the run's shareable
 * events), its span defaults to the whole text of the event (contentText), and a quote without a
 * span is located in that text (its first occurrence). A quote's SHA-256 is part of the id.
 * Throws ValidationError, with `field` under `field`, for a bad span, an unknown or secret event,
 * or a quote that is not the event's text at the span.
 *
 * @example
 * pointerOf({ corpus_id: 'docs', chunk_id: 'c1', span: [0, 12] }, new Map()).evidence_id // 'evd_…'
 * pointerOf({ event_id: 'evt_01J…', quote: 'Lisbon' }, events).span // [8, 14]
 */
export function pointerOf(
  input: EvidenceInput,
  events: ReadonlyMap<string, EventRecord>,
  field = 'evidence',
): ResolvedEvidence {
  if ('event_id' in input) return eventPointer(input.event_id, input.span, input.quote, events, field);
  if (input.corpus_id === EVENTS_CORPUS)
    return eventPointer(input.chunk_id, input.span, input.quote, events, field, 'chunk_id');
  checkId(input.corpus_id, `${field}.corpus_id`);
  checkId(input.chunk_id, `${field}.chunk_id`, ID_LIMITS.chunk);
  const span = checkSpan(input.span, `${field}.span`);
  const quote = checkQuote(input.quote, `${field}.quote`);
  if (input.source_id !== undefined) checkId(input.source_id, `${field}.source_id`, ID_LIMITS.source);
  return {
    evidence_id: evidenceId({ corpus: input.corpus_id, chunk_id: input.chunk_id, span, quote }),
    chunk_id: input.chunk_id,
    span,
    corpus_id: input.corpus_id,
    source_id: input.source_id ?? null,
    quote_hash: quote === undefined ? null : sha256(quote),
  };
}

/**
 * The ids of the events a payload cites (as `event_id`, or as a chunk of the `events` corpus), once
 * each in order: the events the caller must look up for pointerOf.
 *
 * @example
 * eventIdsCited({ claims: [{ claim_id: 'c', status: 'verified', statement: 's', evidence: [{ event_id: 'evt_1' }] }] }) // ['evt_1']
 */
export function eventIdsCited(payload: RunPayload): string[] {
  const inputs = [
    ...(payload.evidence ?? []),
    ...(payload.claims ?? []).flatMap((claim) => claim.evidence ?? []),
    ...(payload.conflicts ?? []).flatMap((conflict) => [...conflict.side_a, ...conflict.side_b]),
  ];
  const ids = inputs.flatMap((input) =>
    'event_id' in input ? [input.event_id] : input.corpus_id === EVENTS_CORPUS ? [input.chunk_id] : [],
  );
  return [...new Set(ids)];
}

/**
 * Just the four pointer keys of a pointer or ledger entry (what a snapshot stores).
 *
 * @example
 * toPointer(ledgerEntry) // { evidence_id, chunk_id, span, corpus_id }
 */
export function toPointer(evidence: EvidencePointer): EvidencePointer {
  return {
    evidence_id: evidence.evidence_id,
    chunk_id: evidence.chunk_id,
    span: [evidence.span[0], evidence.span[1]],
    corpus_id: evidence.corpus_id,
  };
}

/**
 * The ledger entry of resolved evidence, recorded at `recordedAt`.
 *
 * @example
 * toLedgerEntry(pointerOf(input, events), '2026-01-01T00:00:00.000Z').recorded_at
 */
export function toLedgerEntry(evidence: ResolvedEvidence, recordedAt: string): LedgerEntry {
  return {
    ...toPointer(evidence),
    source_id: evidence.source_id,
    quote_hash: evidence.quote_hash,
    recorded_at: recordedAt,
  };
}

function eventPointer(
  eventId: string,
  givenSpan: [number, number] | undefined,
  quote: string | undefined,
  events: ReadonlyMap<string, EventRecord>,
  field: string,
  idField = 'event_id',
): ResolvedEvidence {
  checkId(eventId, `${field}.${idField}`);
  const event = events.get(eventId);
  if (event === undefined) {
    throw ValidationError.of(
      `${field}.${idField}`,
      'unknown_event',
      `no event ${JSON.stringify(eventId)} in this run's shareable log`,
    );
  }
  if (!isShareable(event)) {
    throw ValidationError.of(
      `${field}.${idField}`,
      'secret_event',
      `event ${JSON.stringify(eventId)} is secret and can never be evidence`,
    );
  }
  checkQuote(quote, `${field}.quote`);
  const text = contentText(event.content);
  const span = givenSpan === undefined ? defaultSpan(text, quote, field) : checkSpan(givenSpan, `${field}.span`);
  if (span[1] > text.length) {
    throw ValidationError.of(
      `${field}.span`,
      'span_outside_text',
      `span [${span[0]}, ${span[1]}) ends after the event's text (${text.length} characters)`,
    );
  }
  if (quote !== undefined && text.slice(span[0], span[1]) !== quote) {
    throw ValidationError.of(
      `${field}.quote`,
      'quote_mismatch',
      `the quote is not the event's text at [${span[0]}, ${span[1]})`,
    );
  }
  return {
    evidence_id: evidenceId({ corpus: EVENTS_CORPUS, chunk_id: eventId, span, quote }),
    chunk_id: eventId,
    span,
    corpus_id: EVENTS_CORPUS,
    source_id: null,
    quote_hash: quote === undefined ? null : sha256(quote),
  };
}

function defaultSpan(text: string, quote: string | undefined, field: string): [number, number] {
  if (quote === undefined) return [0, text.length];
  const start = text.indexOf(quote);
  if (start < 0)
    throw ValidationError.of(`${field}.quote`, 'quote_not_found', "the quote does not occur in the event's text");
  return [start, start + quote.length];
}

function checkSpan(span: unknown, field: string): [number, number] {
  if (!Array.isArray(span) || span.length !== 2 || !span.every((offset) => Number.isSafeInteger(offset))) {
    throw ValidationError.of(field, 'span', 'must be two integer offsets [start, end)');
  }
  const [start, end] = span as [number, number];
  if (start < 0) throw ValidationError.of(field, 'span', `start ${start} is negative`);
  if (start > end) throw ValidationError.of(field, 'span', `start ${start} is after end ${end}`);
  return [start, end];
}

function checkQuote(quote: unknown, field: string): string | undefined {
  if (quote === undefined) return undefined;
  if (typeof quote !== 'string' || quote.length === 0)
    throw ValidationError.of(field, 'minLength', 'must be a non-empty string when given');
  return quote;
}

/**
 * Throws ValidationError (rule `identifier`) unless `value` is an id: 1 to `max` characters (256 by
 * default, like common.schema.json's identifier) without control characters.
 *
 * @example
 * checkId('claim-1', 'run.claims[0].claim_id') // passes
 */
export function checkId(value: unknown, field: string, max: number = ID_LIMITS.identifier): void {
  if (typeof value !== 'string' || value.length === 0 || value.length > max || CONTROL.test(value)) {
    throw ValidationError.of(field, 'identifier', `must be 1-${max} characters without control characters`);
  }
}
