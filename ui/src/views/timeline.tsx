// Timeline of a session: its events in log order by role and time, sensitivity badges (a secret
// event shows that it exists, never its content: the server withholds it and this view does not
// render it), tool results folded, markers as labels, a page at a time. `#/event?id=…` shows one event.

import type { JSX } from 'preact';
import { useEffect } from 'preact/hooks';

import { api, query, type Page } from '../api.js';
import { Pager, pageSize, useCursorPages } from '../layout.js';
import type { EventRecord } from '../../../src/client/index.js';
import {
  Badge,
  contentText,
  hasScope,
  href,
  Json,
  ScopeForm,
  scopeOf,
  Status,
  Time,
  useLoad,
  type Route,
} from '../ui.js';

/** One event, as a timeline row. */
export function EventRow({ event, focused = false }: { event: EventRecord; focused?: boolean }): JSX.Element {
  const secret = event.sensitivity === 'secret';
  let body: JSX.Element;
  if (secret)
    body = <p class="withheld">Secret content — not shown. The event exists; its content never leaves the server.</p>;
  else if (event.kind === 'marker') body = <Badge tone="info">{event.marker ?? 'marker'}</Badge>;
  else if (event.kind === 'tool_result' || event.kind === 'state_patch') {
    const tool = event.origin_metadata?.['tool_name'];
    body = (
      <details>
        <summary>
          {event.kind === 'tool_result' ? `Tool result${typeof tool === 'string' ? `: ${tool}` : ''}` : 'State patch'} (
          {contentText(event.content).length} characters)
        </summary>
        <Json value={event.content} />
      </details>
    );
  } else body = <p class="content">{contentText(event.content)}</p>;
  return (
    <li
      id={event.id}
      class={`event role-${event.role}${focused ? ' focused' : ''}`}
      tabIndex={focused ? -1 : undefined}
    >
      <div class="event-head">
        <strong class="role">{event.speaker ?? event.role}</strong>
        <Time at={event.ts} />
        <Badge tone="plain">{event.kind}</Badge>
        {event.sensitivity === 'normal' ? null : <Badge tone={secret ? 'bad' : 'warn'}>{event.sensitivity}</Badge>}
        {event.turn_id === null ? null : <span class="muted">turn {event.turn_id}</span>}
        <a class="muted" href={href('event', { id: event.id })}>
          {event.id}
        </a>
      </div>
      {body}
    </li>
  );
}

/** The largest id before `id` (ids sort in creation order), so a page can start at that event. */
function justBefore(id: string): string {
  const digits = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const chars = [...id];
  for (let at = chars.length - 1; at > id.indexOf('_'); at -= 1) {
    const value = digits.indexOf(chars[at]!);
    if (value > 0) {
      chars[at] = digits[value - 1]!;
      return chars.join('');
    }
    chars[at] = digits[digits.length - 1]!;
  }
  return id;
}

export function TimelineView({ route }: { route: Route }): JSX.Element {
  const scope = scopeOf(route);
  const need = ['user_id', 'agent_id', 'session_id'] as const;
  const ready = hasScope(scope, need);
  const focus = route.params['focus'];
  const size = pageSize(40, 15);
  // A link to one event starts the timeline at it.
  const { state, paged } = useCursorPages(
    (cursor) =>
      ready
        ? api<Page<EventRecord>>(
            'GET',
            `/v1/events${query({ user_id: scope.user_id, agent_id: scope.agent_id, session_id: scope.session_id, run_id: scope.run_id, limit: size, cursor })}`,
          )
        : Promise.resolve({ items: [], next_cursor: null }),
    [scope.user_id, scope.agent_id, scope.session_id, scope.run_id, size],
    focus === undefined ? undefined : justBefore(focus),
  );
  useEffect(() => {
    if (focus !== undefined) document.getElementById(focus)?.scrollIntoView({ block: 'center' });
  }, [focus, state.data]);
  return (
    <section aria-labelledby="timeline-title">
      <h1 id="timeline-title">Timeline</h1>
      <ScopeForm view="timeline" scope={scope} need={need} also={['run_id']} />
      {!ready ? (
        <p class="muted">Choose a user, agent and session (the run is optional), or open one from Scopes.</p>
      ) : null}
      {focus === undefined || !ready ? null : (
        <p>
          From event {focus}. <a href={href('timeline', { ...scope })}>From the start of the session</a>
        </p>
      )}
      <Status state={state}>
        {(page) =>
          ready && page.items.length === 0 ? (
            <p class="muted">No events in this session.</p>
          ) : (
            <>
              <ol class="timeline" aria-label="Events">
                {page.items.map((event) => (
                  <EventRow key={event.id} event={event} focused={event.id === focus} />
                ))}
              </ol>
              <Pager paged={paged} label="Event pages" />
            </>
          )
        }
      </Status>
    </section>
  );
}

export function EventView({ route }: { route: Route }): JSX.Element {
  const id = route.params['id'] ?? '';
  const state = useLoad(() => api<EventRecord>('GET', `/v1/events/${encodeURIComponent(id)}`), [id]);
  return (
    <section aria-labelledby="event-title">
      <h1 id="event-title">Event</h1>
      <Status state={state}>
        {(event) => (
          <>
            <ol class="timeline">
              <EventRow event={event} focused />
            </ol>
            <p>
              <a
                href={href('timeline', {
                  user_id: event.user_id,
                  agent_id: event.agent_id,
                  session_id: event.session_id,
                  run_id: event.run_id,
                  focus: event.id,
                })}
              >
                See it in its session's timeline
              </a>
            </p>
            <dl class="facts">
              <dt>Session</dt>
              <dd>
                {event.user_id} / {event.agent_id} / {event.session_id} / {event.run_id}
              </dd>
              <dt>Recorded</dt>
              <dd>
                <Time at={event.recorded_at} />
              </dd>
              <dt>Tags</dt>
              <dd>{event.tags.length === 0 ? '—' : event.tags.join(', ')}</dd>
            </dl>
          </>
        )}
      </Status>
    </section>
  );
}
