// Memory: a user's items as the lines a packet shows, with key, type, status (done tasks, superseded
// versions and disputed keys marked), dates and confidence, a page at a time; hybrid search with
// the score of each signal; one item opens in a drawer over the list, where it can be corrected.

import type { JSX } from 'preact';
import { useState } from 'preact/hooks';

import { api, query, type Page } from '../api.js';
import { Pager, pageSize, useCursorPages } from '../layout.js';
import type { ItemHit, ItemRecord } from '../../../src/client/index.js';
import {
  Badge,
  ErrorBox,
  Field,
  go,
  hasScope,
  href,
  type Route,
  ScopeForm,
  scopeOf,
  type ScopeParams,
  Status,
  TableHead,
  Time,
} from '../ui.js';
import { ItemPanel } from './item-panel.js';
import { ItemStatus, useDisputed, Validity } from './item-parts.js';

const TYPES = [
  'profile',
  'preferences',
  'goals',
  'tasks',
  'decisions',
  'entities',
  'events',
  'cases',
  'patterns',
  'procedure',
];

function ItemTable({
  items,
  scope,
  selected,
  disputed,
}: {
  items: ItemRecord[];
  scope: ScopeParams;
  selected: string | undefined;
  disputed: Set<string>;
}): JSX.Element {
  return (
    <table class="items">
      <TableHead columns={['Item', 'Type', 'Status', ['Confidence', 'num'], 'Valid', 'Recorded']} />
      <tbody>
        {items.map((item) => (
          <tr key={item.id} class={item.id === selected ? 'selected' : undefined}>
            <th scope="row" data-label="Item">
              <a href={href('memory', { ...scope, item: item.id })}>{item.text}</a>
              <div class="key">
                {item.key} · v{item.version} · {item.scope_level}
              </div>
            </th>
            <td data-label="Type">{item.type}</td>
            <td data-label="Status">
              <ItemStatus item={item} disputed={disputed.has(item.id)} />
            </td>
            <td class="num" data-label="Confidence">
              {item.confidence.toFixed(2)}
            </td>
            <td data-label="Valid">
              <Validity item={item} />
            </td>
            <td data-label="Recorded">
              <Time at={item.recorded_at} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The score of each signal of a hit, as "name rank/score". */
function Signals({ signals }: { signals: ItemHit['signals'] }): JSX.Element {
  return (
    <ul class="signals">
      {Object.entries(signals).map(([name, signal]) => (
        <li key={name}>
          <span class="signal-name">{name}</span>{' '}
          {signal === null ? (
            <span class="muted">no match</span>
          ) : (
            Object.entries(signal)
              .map(
                ([field, value]) => `${field} ${typeof value === 'number' ? Number(value.toFixed(4)) : String(value)}`,
              )
              .join(', ')
          )}
        </li>
      ))}
    </ul>
  );
}

function Search({ scope }: { scope: ScopeParams }): JSX.Element {
  const [text, setText] = useState('');
  const [hits, setHits] = useState<ItemHit[] | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const run = async () => {
    setError(undefined);
    try {
      const answer = await api<{ hits: ItemHit[] }>('POST', '/v1/memory/search', {
        scope:
          scope.agent_id === '' ? { user_id: scope.user_id } : { user_id: scope.user_id, agent_id: scope.agent_id },
        query: text,
        k: 8,
      });
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
        <Field
          name="memory-query"
          label="Search memory"
          value={text}
          onInput={setText}
          placeholder="words, a question…"
          required
        />
        <button type="submit">Search</button>
        {hits === undefined ? null : (
          <button type="button" onClick={() => setHits(undefined)}>
            Clear
          </button>
        )}
      </form>
      <ErrorBox error={error} />
      {hits === undefined ? null : hits.length === 0 ? (
        <p class="muted">No item matches.</p>
      ) : (
        <ol class="hits" aria-label="Search results">
          {hits.map((hit) => (
            <li key={hit.item.id}>
              <a href={href('memory', { ...scope, item: hit.item.id })}>{hit.item.text}</a>{' '}
              <Badge>{hit.item.type}</Badge> <span class="key">{hit.item.key}</span>{' '}
              <span class="score">score {hit.score.toFixed(4)}</span>
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
  const size = pageSize(20, 8);
  const { state: items, paged } = useCursorPages(
    (cursor) =>
      ready
        ? api<Page<ItemRecord>>(
            'GET',
            `/v1/items${query({ user_id: scope.user_id, agent_id: scope.agent_id, types: type === '' ? undefined : [type], status: all ? ['active', 'superseded', 'retracted'] : undefined, limit: size, cursor })}`,
          )
        : Promise.resolve({ items: [], next_cursor: null }),
    [scope.user_id, scope.agent_id, type, all, size],
  );
  const disputed = useDisputed(ready ? scope.user_id : '');
  const filters = { user_id: scope.user_id, agent_id: scope.agent_id };
  const here = { ...filters, type, all: all ? '1' : '' };
  return (
    <section aria-labelledby="memory-title">
      <h1 id="memory-title">Memory</h1>
      <ScopeForm view="memory" scope={scope} need={['user_id']} also={['agent_id']} />
      {!ready ? (
        <p class="muted">Choose a user (and agent), or open one from Scopes.</p>
      ) : (
        <>
          <Search scope={scope} />
          <div class="filters" role="group" aria-label="Filters">
            <label class="field">
              <span>Type</span>
              <select
                value={type}
                onChange={(event) => go('memory', { ...here, type: (event.currentTarget as HTMLSelectElement).value })}
              >
                <option value="">every type</option>
                {TYPES.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
            <label class="check">
              <input
                type="checkbox"
                checked={all}
                onChange={(event) =>
                  go('memory', { ...here, all: (event.currentTarget as HTMLInputElement).checked ? '1' : '' })
                }
              />{' '}
              superseded and retracted too
            </label>
          </div>
          <Status state={items}>
            {(page) =>
              page.items.length === 0 ? (
                <p class="muted">No items{type === '' ? '' : ` of type ${type}`}.</p>
              ) : (
                <>
                  <ItemTable items={page.items} scope={scope} selected={selected} disputed={disputed} />
                  <Pager paged={paged} label="Item pages" />
                </>
              )
            }
          </Status>
          {selected === undefined ? null : (
            <ItemPanel
              id={selected}
              scope={scope}
              disputed={disputed}
              onChanged={items.reload}
              onClose={() => go('memory', here)}
            />
          )}
        </>
      )}
    </section>
  );
}
