// Memory: a user's items by type with status, confidence, validity and scope level; one item's
// version history with a link from every source to the event it came from; hybrid search with the
// score of each signal.

import type { JSX } from 'preact';
import { useState } from 'preact/hooks';

import { api, query, type Page } from '../api.js';
import type { MemoryItem, SearchHit } from '../types.js';
import { Badge, ErrorBox, Field, go, hasScope, href, Json, type Route, ScopeForm, scopeOf, type ScopeParams, Status, StatusBadge, TableHead, Time, useLoad } from '../ui.js';

const TYPES = ['profile', 'preferences', 'goals', 'tasks', 'decisions', 'entities', 'events', 'cases', 'patterns', 'procedure'];

/** Validity as "from – to" (open ends shown as such). */
function Validity({ item }: { item: MemoryItem }): JSX.Element {
  if (item.valid_from === null && item.valid_to === null) return <span class="muted">always</span>;
  return (
    <span>
      {item.valid_from === null ? '…' : <Time at={item.valid_from} />} – {item.valid_to === null ? 'now' : <Time at={item.valid_to} />}
    </span>
  );
}

/** A short text of an item's value. */
function valueText(value: Record<string, unknown>): string {
  const text = JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

function ItemTable({ items, scope, selected }: { items: MemoryItem[]; scope: ScopeParams; selected: string | undefined }): JSX.Element {
  return (
    <table>
      <TableHead columns={['Key', 'Value', 'Status', ['Confidence', 'num'], 'Valid', 'Level', ['Version', 'num']]} />
      <tbody>
        {items.map((item) => (
          <tr key={item.id} class={item.id === selected ? 'selected' : undefined}>
            <th scope="row">
              <a href={href('memory', { ...scope, item: item.id })}>{item.key}</a>
            </th>
            <td class="value">{valueText(item.value)}</td>
            <td>
              <StatusBadge status={item.status} />
            </td>
            <td class="num">{item.confidence.toFixed(2)}</td>
            <td>
              <Validity item={item} />
            </td>
            <td>{item.scope_level}</td>
            <td class="num">{item.version}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One item: its fields, every version of its key, and its sources. */
function ItemDetail({ id, scope }: { id: string; scope: ScopeParams }): JSX.Element {
  const item = useLoad(() => api<MemoryItem>('GET', `/v1/items/${encodeURIComponent(id)}`), [id]);
  return (
    <aside class="panel" aria-labelledby="item-title">
      <Status state={item}>
        {(current) => (
          <>
            <h2 id="item-title">
              {current.type} · {current.key}
            </h2>
            <p>
              <StatusBadge status={current.status} /> version {current.version}, confidence {current.confidence.toFixed(2)}, {current.scope_level} level, recorded <Time at={current.recorded_at} />
              {current.ended_at === null ? null : (
                <>
                  , ended <Time at={current.ended_at} />
                </>
              )}
            </p>
            <h3>Value</h3>
            <Json value={current.value} label="Item value" />
            <h3>Sources</h3>
            {current.source_event_ids.length === 0 ? (
              <p class="muted">No source events (written explicitly).</p>
            ) : (
              <ul class="sources">
                {current.source_event_ids.map((source) => (
                  <li key={source}>
                    <a href={href('event', { id: source })}>{source}</a>
                  </li>
                ))}
              </ul>
            )}
            <p class="muted">Provenance: {JSON.stringify(current.provenance)}</p>
            <History scope={{ ...scope, user_id: current.user_id ?? scope.user_id, agent_id: current.agent_id ?? scope.agent_id }} itemKey={current.key} current={current.id} />
          </>
        )}
      </Status>
    </aside>
  );
}

function History({ scope, itemKey, current }: { scope: ScopeParams; itemKey: string; current: string }): JSX.Element {
  const history = useLoad(() => api<Page<MemoryItem>>('GET', `/v1/items/history${query({ user_id: scope.user_id, agent_id: scope.agent_id, key: itemKey })}`), [scope.user_id, scope.agent_id, itemKey]);
  return (
    <>
      <h3>Version history</h3>
      <Status state={history}>
        {(page) => (
          <ol class="history">
            {page.items.map((version) => (
              <li key={version.id} class={version.id === current ? 'selected' : undefined}>
                <a href={href('memory', { ...scope, item: version.id })}>v{version.version}</a> <StatusBadge status={version.status} /> <Time at={version.recorded_at} /> — {valueText(version.value)}
                {version.source_event_ids.length === 0 ? null : (
                  <>
                    {' '}
                    from{' '}
                    {version.source_event_ids.map((source) => (
                      <a key={source} class="source" href={href('event', { id: source })}>
                        {source.slice(0, 12)}…
                      </a>
                    ))}
                  </>
                )}
              </li>
            ))}
          </ol>
        )}
      </Status>
    </>
  );
}

/** The score of each signal of a hit, as "name rank/score". */
function Signals({ signals }: { signals: SearchHit['signals'] }): JSX.Element {
  return (
    <ul class="signals">
      {Object.entries(signals).map(([name, signal]) => (
        <li key={name}>
          <span class="signal-name">{name}</span>{' '}
          {signal === null ? (
            <span class="muted">no match</span>
          ) : (
            Object.entries(signal)
              .map(([field, value]) => `${field} ${typeof value === 'number' ? Number(value.toFixed(4)) : String(value)}`)
              .join(', ')
          )}
        </li>
      ))}
    </ul>
  );
}

function Search({ scope }: { scope: ScopeParams }): JSX.Element {
  const [text, setText] = useState('');
  const [hits, setHits] = useState<SearchHit[] | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const run = async () => {
    setError(undefined);
    try {
      const answer = await api<{ hits: SearchHit[] }>('POST', '/v1/memory/search', { scope: scope.agent_id === '' ? { user_id: scope.user_id } : { user_id: scope.user_id, agent_id: scope.agent_id }, query: text, k: 20 });
      setHits(answer.hits);
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <div class="search">
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          void run();
        }}
      >
        <Field name="memory-query" label="Search memory" value={text} onInput={setText} placeholder="words, a question…" required />
        <button type="submit">Search</button>
      </form>
      <ErrorBox error={error} />
      {hits === undefined ? null : hits.length === 0 ? (
        <p class="muted">No item matches.</p>
      ) : (
        <ol class="hits" aria-label="Search results">
          {hits.map((hit) => (
            <li key={hit.item.id}>
              <a href={href('memory', { ...scope, item: hit.item.id })}>{hit.item.key}</a> <Badge>{hit.item.type}</Badge> <span class="score">score {hit.score.toFixed(4)}</span>
              <div class="value">{valueText(hit.item.value)}</div>
              <Signals signals={hit.signals} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

export function MemoryView({ route }: { route: Route }): JSX.Element {
  const scope = scopeOf(route);
  const ready = hasScope(scope, ['user_id']);
  const type = route.params['type'] ?? '';
  const all = route.params['all'] === '1';
  const selected = route.params['item'];
  const items = useLoad(
    () => (ready ? api<Page<MemoryItem>>('GET', `/v1/items${query({ user_id: scope.user_id, agent_id: scope.agent_id, types: type === '' ? undefined : [type], status: all ? ['active', 'superseded', 'retracted'] : undefined, limit: 1000 })}`) : Promise.resolve({ items: [], next_cursor: null })),
    [scope.user_id, scope.agent_id, type, all],
  );
  const filters = { user_id: scope.user_id, agent_id: scope.agent_id };
  return (
    <section aria-labelledby="memory-title">
      <h1 id="memory-title">Memory</h1>
      <ScopeForm view="memory" scope={scope} need={['user_id']} also={['agent_id']} />
      {!ready ? (
        <p class="muted">Choose a user (and agent), or open one from Scopes.</p>
      ) : (
        <div class="split">
          <div>
            <Search scope={scope} />
            <div class="filters" role="group" aria-label="Filters">
              <label class="field">
                <span>Type</span>
                <select value={type} onChange={(event) => go('memory', { ...filters, type: (event.currentTarget as HTMLSelectElement).value, all: all ? '1' : '' })}>
                  <option value="">every type</option>
                  {TYPES.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
              </label>
              <label class="check">
                <input type="checkbox" checked={all} onChange={(event) => go('memory', { ...filters, type, all: (event.currentTarget as HTMLInputElement).checked ? '1' : '' })} /> superseded and retracted too
              </label>
            </div>
            <Status state={items}>
              {(page) => {
                if (page.items.length === 0) return <p class="muted">No items{type === '' ? '' : ` of type ${type}`}.</p>;
                const byType = TYPES.map((name) => [name, page.items.filter((item) => item.type === name)] as const).filter(([, list]) => list.length > 0);
                return (
                  <>
                    {byType.map(([name, list]) => (
                      <div key={name}>
                        <h2>
                          {name} <span class="muted">({list.length})</span>
                        </h2>
                        <ItemTable items={list} scope={scope} selected={selected} />
                      </div>
                    ))}
                  </>
                );
              }}
            </Status>
          </div>
          {selected === undefined ? null : <ItemDetail id={selected} scope={scope} />}
        </div>
      )}
    </section>
  );
}
