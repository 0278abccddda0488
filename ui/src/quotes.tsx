// Evidence as quoted text: each event's words (read once per page load and kept), who said them and
// when, with a link to the event. A secret event shows only that it exists: the API withholds it.

import type { JSX } from 'preact';
import { useState } from 'preact/hooks';

import { api } from './api.js';
import type { EventRecord } from '../../src/client/index.js';
import { contentText, href, Time, useLoad } from './ui.js';

const events = new Map<string, Promise<EventRecord>>();

/** An event by id, asked of the API once. */
export function loadEvent(id: string): Promise<EventRecord> {
  let loading = events.get(id);
  if (loading === undefined) {
    loading = api<EventRecord>('GET', `/v1/events/${encodeURIComponent(id)}`);
    // A failure is not kept: the next view asks again.
    loading.catch(() => events.delete(id));
    events.set(id, loading);
  }
  return loading;
}

const LONGEST = 280;

/** One event's words, quoted, with its speaker, time and a link to it. */
export function Quote({ id }: { id: string }): JSX.Element {
  const event = useLoad(() => loadEvent(id), [id]);
  const link = (
    <a class="quote-link" href={href('event', { id })} title={id}>
      event
    </a>
  );
  if (event.data === undefined) {
    return (
      <li class="quote muted">
        {event.error === undefined ? 'Loading…' : `Event ${id} could not be read.`} {link}
      </li>
    );
  }
  const record = event.data;
  const text = contentText(record.content);
  return (
    <li class="quote">
      {record.sensitivity === 'secret' ? (
        <span class="withheld">A secret event (its content is never shown)</span>
      ) : (
        <q>{text.length > LONGEST ? `${text.slice(0, LONGEST - 1)}…` : text}</q>
      )}{' '}
      <span class="muted">
        — {record.speaker ?? record.role}, <Time at={record.ts} />
      </span>{' '}
      {link}
    </li>
  );
}

/** The quotes of some events: the first `shown`, the rest on request. */
export function Quotes({
  ids,
  shown = 2,
  label = 'Evidence',
}: {
  ids: readonly string[];
  shown?: number;
  label?: string;
}): JSX.Element {
  const [all, setAll] = useState(false);
  if (ids.length === 0) return <p class="muted">No source events (written explicitly).</p>;
  const visible = all ? ids : ids.slice(0, shown);
  return (
    <>
      <ul class="quotes" aria-label={label}>
        {visible.map((id) => (
          <Quote key={id} id={id} />
        ))}
      </ul>
      {visible.length < ids.length ? (
        <button type="button" class="link" onClick={() => setAll(true)}>
          {ids.length - visible.length} more
        </button>
      ) : null}
    </>
  );
}
