// Context builds: every stored compose, newest first; open one to see its packet's report, replay it
// as of its time (byte-identical or not), or diff two of them.

import type { JSX } from 'preact';
import { useState } from 'preact/hooks';

import { api, query, type Page } from '../api.js';
import type { ContextBuild, ReplayResult } from '../types.js';
import { Badge, ErrorBox, go, href, Json, type Route, ScopeForm, scopeOf, Status, TableHead, Time, useLoad } from '../ui.js';
import { PacketReport } from './compose.js';

interface BuildDiff {
  a: string;
  b: string;
  same_packet: boolean;
  added: string[];
  removed: string[];
  request_changes: string[];
  section_usage: Record<string, { a: number; b: number }>;
  summary: string[];
}

function Replay({ id }: { id: string }): JSX.Element {
  const [result, setResult] = useState<ReplayResult | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const replay = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setResult(await api<ReplayResult>('POST', `/v1/builds/${encodeURIComponent(id)}/replay`));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="replay">
      <button type="button" class="primary" onClick={() => void replay()} disabled={busy}>
        {busy ? 'Replaying…' : 'Replay as of its time'}
      </button>
      <ErrorBox error={error} />
      {result === undefined ? null : (
        <p role="status" class={result.identical ? 'ok' : 'error'}>
          {result.identical ? 'Byte-identical: the stores rebuilt the same packet.' : 'Different: the rebuilt packet does not match the stored one.'} Stored {result.original_hash.slice(0, 16)}…, replayed {result.replay_hash.slice(0, 16)}…
        </p>
      )}
    </div>
  );
}

function BuildDetail({ id }: { id: string }): JSX.Element {
  const build = useLoad(() => api<ContextBuild>('GET', `/v1/builds/${encodeURIComponent(id)}`), [id]);
  return (
    <aside class="panel" aria-labelledby="build-title">
      <h2 id="build-title">Build {id}</h2>
      <Status state={build}>
        {(b) => (
          <>
            <p>
              <Badge tone="info">{b.purpose}</Badge> {b.user_id} / {b.agent_id} / {b.session_id} / {b.run_id}, as of <Time at={b.as_of} />
            </p>
            <Replay id={b.id} />
            <details>
              <summary>The request</summary>
              <Json value={b.request} label="Request" />
            </details>
            <PacketReport packet={b.packet} text={undefined} />
          </>
        )}
      </Status>
    </aside>
  );
}

function Diff({ a, b }: { a: string; b: string }): JSX.Element {
  const diff = useLoad(() => api<BuildDiff>('GET', `/v1/builds/diff${query({ a, b })}`), [a, b]);
  return (
    <aside class="panel" aria-labelledby="diff-title">
      <h2 id="diff-title">What changed</h2>
      <Status state={diff}>
        {(d) => (
          <>
            <p>
              {d.a} → {d.b}: {d.same_packet ? 'the same packet.' : 'different packets.'}
            </p>
            <ul aria-label="Differences">
              {d.summary.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            {d.request_changes.length === 0 ? null : <p>Request fields changed: {d.request_changes.join(', ')}</p>}
            <div class="two">
              <div>
                <h3>Added ({d.added.length})</h3>
                <ul class="explain">
                  {d.added.map((id) => (
                    <li key={id}>{id}</li>
                  ))}
                </ul>
              </div>
              <div>
                <h3>Removed ({d.removed.length})</h3>
                <ul class="explain">
                  {d.removed.map((id) => (
                    <li key={id}>{id}</li>
                  ))}
                </ul>
              </div>
            </div>
            {Object.keys(d.section_usage).length === 0 ? null : (
              <table>
                <TableHead columns={['Section', ['Tokens in a', 'num'], ['Tokens in b', 'num']]} />
                <tbody>
                  {Object.entries(d.section_usage).map(([name, usage]) => (
                    <tr key={name}>
                      <td>{name}</td>
                      <td class="num">{usage.a}</td>
                      <td class="num">{usage.b}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </Status>
    </aside>
  );
}

export function BuildsView({ route }: { route: Route }): JSX.Element {
  const scope = scopeOf(route);
  const open = route.params['build'];
  const a = route.params['a'];
  const b = route.params['b'];
  const [picked, setPicked] = useState<string[]>([]);
  const builds = useLoad(() => api<Page<ContextBuild>>('GET', `/v1/builds${query({ user_id: scope.user_id, agent_id: scope.agent_id, session_id: scope.session_id, limit: 100 })}`), [scope.user_id, scope.agent_id, scope.session_id]);
  const base = { user_id: scope.user_id, agent_id: scope.agent_id, session_id: scope.session_id };
  const toggle = (id: string) => setPicked((current) => (current.includes(id) ? current.filter((entry) => entry !== id) : [...current.slice(-1), id]));
  return (
    <section aria-labelledby="builds-title">
      <h1 id="builds-title">Context builds</h1>
      <ScopeForm view="builds" scope={scope} need={[]} also={['user_id', 'agent_id', 'session_id']} />
      <p class="muted">Every compose is stored. Leave the scope empty to list the whole tenant's; tick two builds to diff them.</p>
      <div class="split">
        <div>
          <Status state={builds}>
            {(page) =>
              page.items.length === 0 ? (
                <p class="muted">No context builds yet: compose a packet first.</p>
              ) : (
                <>
                  <div class="buttons">
                    <button type="button" disabled={picked.length !== 2} onClick={() => go('builds', { ...base, a: picked[0], b: picked[1] })}>
                      Diff the two ticked
                    </button>
                  </div>
                  <table>
                    <TableHead columns={['Diff', 'Build', 'Purpose', 'Scope', ['Tokens', 'num'], 'Created']} />
                    <tbody>
                      {page.items.map((build) => (
                        <tr key={build.id} class={build.id === open ? 'selected' : undefined}>
                          <td>
                            <input type="checkbox" aria-label={`Tick ${build.id} for a diff`} checked={picked.includes(build.id)} onChange={() => toggle(build.id)} />
                          </td>
                          <th scope="row">
                            <a href={href('builds', { ...base, build: build.id })}>{build.id}</a>
                          </th>
                          <td>{build.purpose}</td>
                          <td>
                            {build.user_id} / {build.session_id}
                          </td>
                          <td class="num">{build.packet.budget_report.used_tokens_est}</td>
                          <td>
                            <Time at={build.created_at} />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </>
              )
            }
          </Status>
        </div>
        {a !== undefined && b !== undefined ? <Diff a={a} b={b} /> : open === undefined ? null : <BuildDetail id={open} />}
      </div>
    </section>
  );
}
