// Snapshots of a run: each compaction snapshot with its validation result (every check) and the
// deterministic narrative the server renders from it, opened in a drawer over the list.

import type { JSX } from 'preact';

import { api, query, type Page } from '../api.js';
import type { SnapshotRecord } from '../../../src/client/index.js';
import { Drawer, Pager, pageSize, useCursorPages } from '../layout.js';
import {
  go,
  hasScope,
  href,
  Json,
  type Route,
  ScopeForm,
  scopeOf,
  Status,
  StatusBadge,
  TableHead,
  Time,
  useLoad,
} from '../ui.js';

interface Check {
  name: string;
  status: string;
  message: string;
}

function Narrative({ id }: { id: string }): JSX.Element {
  const text = useLoad(() => api<string>('GET', `/v1/snapshots/${encodeURIComponent(id)}/narrative`), [id]);
  return (
    <Status state={text}>
      {(markdown) => (
        <pre class="prompt narrative" tabIndex={0} aria-label="Narrative">
          {markdown}
        </pre>
      )}
    </Status>
  );
}

function SnapshotDetail({ id, onClose }: { id: string; onClose: () => void }): JSX.Element {
  const record = useLoad(() => api<SnapshotRecord>('GET', `/v1/snapshots/${encodeURIComponent(id)}`), [id]);
  return (
    <Drawer title={`Snapshot ${id}`} labelId="snapshot-title" onClose={onClose}>
      <Status state={record}>{(loaded) => <SnapshotBody record={loaded} />}</Status>
    </Drawer>
  );
}

function SnapshotBody({ record }: { record: SnapshotRecord }): JSX.Element {
  const snapshot = record.snapshot;
  const validation = snapshot['validation'] as { status: string; checks: Check[]; failure_action_taken: string };
  return (
    <>
      <p>
        Validation <StatusBadge status={validation.status} />, failure action {validation.failure_action_taken}, created{' '}
        <Time at={String(snapshot['created_at'])} />
      </p>
      <table>
        <TableHead columns={['Check', 'Result', 'Message']} />
        <tbody>
          {validation.checks.map((check) => (
            <tr key={check.name}>
              <td>{check.name}</td>
              <td>
                <StatusBadge status={check.status} />
              </td>
              <td>{check.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Narrative</h3>
      <Narrative id={snapshot.snapshot_id} />
      <details>
        <summary>The snapshot (JSON)</summary>
        <Json value={snapshot} label="Snapshot" />
      </details>
    </>
  );
}

export function SnapshotsView({ route }: { route: Route }): JSX.Element {
  const scope = scopeOf(route);
  const ready = hasScope(scope, ['user_id']);
  const open = route.params['snapshot'];
  const size = pageSize(20, 10);
  const { state: list, paged } = useCursorPages(
    (cursor) =>
      ready
        ? api<Page<SnapshotRecord>>(
            'GET',
            `/v1/snapshots${query({ user_id: scope.user_id, agent_id: scope.agent_id, run_id: scope.run_id, order: 'desc', limit: size, cursor })}`,
          )
        : Promise.resolve({ items: [], next_cursor: null }),
    [scope.user_id, scope.agent_id, scope.run_id, size],
  );
  return (
    <section aria-labelledby="snapshots-title">
      <h1 id="snapshots-title">Snapshots</h1>
      <ScopeForm view="snapshots" scope={scope} need={['user_id']} also={['agent_id', 'run_id']} />
      {!ready ? <p class="muted">Choose a user (the agent and run narrow it), or open one from Scopes.</p> : null}
      <Status state={list}>
        {(page) =>
          page.items.length === 0 ? (
            ready ? (
              <p class="muted">No snapshots: a run is compacted when it crosses its thresholds.</p>
            ) : null
          ) : (
            <>
              <table>
                <TableHead columns={['Snapshot', 'Run', ['Sequence', 'num'], 'Validation', 'Created']} />
                <tbody>
                  {page.items.map((record) => {
                    const id = record.snapshot.snapshot_id;
                    const validation = record.snapshot['validation'] as { status: string };
                    return (
                      <tr key={id} class={id === open ? 'selected' : undefined}>
                        <th scope="row" data-label="Snapshot">
                          <a href={href('snapshots', { ...scope, snapshot: id })}>{id}</a>
                        </th>
                        <td data-label="Run">{record.run_id}</td>
                        <td class="num" data-label="Sequence">
                          {String(record.snapshot['sequence'])}
                        </td>
                        <td data-label="Validation">
                          <StatusBadge status={validation.status} />
                        </td>
                        <td data-label="Created">
                          <Time at={String(record.snapshot['created_at'])} />
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
              <Pager paged={paged} label="Snapshot pages" />
            </>
          )
        }
      </Status>
      {open === undefined ? null : <SnapshotDetail id={open} onClose={() => go('snapshots', { ...scope })} />}
    </section>
  );
}
