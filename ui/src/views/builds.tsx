// Context builds: every stored compose, newest first, a page at a time; open one (in a drawer over
// the list) to see its packet's report and replay it as of its time, or tick two to see what came
// and went between them: the records each holds that the other does not, as text, and the lines of
// their prompt texts.

import type { JSX } from 'preact';
import { useState } from 'preact/hooks';

import { api, query, type Page } from '../api.js';
import { Drawer, Pager, pageSize, useCursorPages } from '../layout.js';
import { lineDiff, packetTexts } from '../packet-text.js';
import type { BuildRecord, ReplayResult } from '../../../src/client/index.js';
import {
  Badge,
  ErrorBox,
  go,
  href,
  Json,
  type Route,
  ScopeForm,
  scopeOf,
  Status,
  TableHead,
  Time,
  useLoad,
} from '../ui.js';
import { PacketReport } from './packet-report.js';

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
          {result.identical
            ? 'Byte-identical: the stores rebuilt the same packet.'
            : 'Different: the rebuilt packet does not match the stored one.'}{' '}
          Stored {result.original_hash.slice(0, 16)}…, replayed {result.replay_hash.slice(0, 16)}…
        </p>
      )}
    </div>
  );
}

const getBuild = (id: string) => api<BuildRecord>('GET', `/v1/builds/${encodeURIComponent(id)}?render=markdown`);

function BuildDetail({ id, onClose }: { id: string; onClose: () => void }): JSX.Element {
  const build = useLoad(() => getBuild(id), [id]);
  return (
    <Drawer title={`Build ${id}`} labelId="build-title" onClose={onClose}>
      <Status state={build}>
        {(b) => (
          <>
            <p>
              <Badge tone="info">{b.purpose}</Badge> {b.user_id} / {b.agent_id} / {b.session_id} / {b.run_id}, as of{' '}
              <Time at={b.as_of} />
            </p>
            <Replay id={b.id} />
            <details>
              <summary>The request</summary>
              <Json value={b.request} label="Request" />
            </details>
            <PacketReport packet={b.packet} text={b.text} />
          </>
        )}
      </Status>
    </Drawer>
  );
}

/** The records one build holds and the other does not, as the text the packet held. */
function Records({
  title,
  ids,
  build,
  tone,
}: {
  title: string;
  ids: readonly string[];
  build: BuildRecord;
  tone: 'came' | 'went';
}): JSX.Element {
  const texts = packetTexts(build.packet);
  return (
    <div>
      <h3>
        {title} ({ids.length})
      </h3>
      <ul class={`explain diff-${tone}`} aria-label={title}>
        {ids.map((id) => (
          <li key={id}>
            {texts.has(id) ? <q>{texts.get(id)}</q> : <span class="muted">(no text in the packet)</span>}{' '}
            <span class="key">{id}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Diff({ a, b, onClose }: { a: string; b: string; onClose: () => void }): JSX.Element {
  const diff = useLoad(async () => {
    const [changes, first, second] = await Promise.all([
      api<BuildDiff>('GET', `/v1/builds/diff${query({ a, b })}`),
      getBuild(a),
      getBuild(b),
    ]);
    return { changes, first, second };
  }, [a, b]);
  return (
    <Drawer title="What came and went" labelId="diff-title" onClose={onClose}>
      <Status state={diff}>
        {({ changes: d, first, second }) => {
          const lines = lineDiff(first.text ?? '', second.text ?? '').filter((line) => line.kind !== 'same');
          return (
            <>
              <p>
                {d.a} → {d.b}: {d.same_packet ? 'the same packet.' : 'different packets.'}
              </p>
              <ul aria-label="Differences">
                {d.summary.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
              <div class="two">
                <Records title="Came (only in the second)" ids={d.added} build={second} tone="came" />
                <Records title="Went (only in the first)" ids={d.removed} build={first} tone="went" />
              </div>
              <h3>Prompt text, line by line ({lines.length} changed)</h3>
              {lines.length === 0 ? (
                <p class="muted">The rendered texts are the same.</p>
              ) : (
                <pre class="prompt line-diff" tabIndex={0} aria-label="Prompt text changes">
                  {lines.map((line, index) => (
                    <div key={index} class={`line-${line.kind}`}>
                      {line.kind === 'came' ? '+ ' : '− '}
                      {line.text}
                    </div>
                  ))}
                </pre>
              )}
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
          );
        }}
      </Status>
    </Drawer>
  );
}

export function BuildsView({ route }: { route: Route }): JSX.Element {
  const scope = scopeOf(route);
  const open = route.params['build'];
  const a = route.params['a'];
  const b = route.params['b'];
  const [picked, setPicked] = useState<string[]>([]);
  const size = pageSize(20, 8);
  const { state: builds, paged } = useCursorPages(
    (cursor) =>
      api<Page<BuildRecord>>(
        'GET',
        `/v1/builds${query({ user_id: scope.user_id, agent_id: scope.agent_id, session_id: scope.session_id, limit: size, cursor })}`,
      ),
    [scope.user_id, scope.agent_id, scope.session_id, size],
  );
  const base = { user_id: scope.user_id, agent_id: scope.agent_id, session_id: scope.session_id };
  const toggle = (id: string) =>
    setPicked((current) =>
      current.includes(id) ? current.filter((entry) => entry !== id) : [...current.slice(-1), id],
    );
  const close = () => go('builds', base);
  return (
    <section aria-labelledby="builds-title">
      <h1 id="builds-title">Context builds</h1>
      <ScopeForm view="builds" scope={scope} need={[]} also={['user_id', 'agent_id', 'session_id']} />
      <p class="muted">
        Every compose is stored. Leave the scope empty to list the whole tenant's; tick two builds to see what came and
        went between them.
      </p>
      <Status state={builds}>
        {(page) =>
          page.items.length === 0 ? (
            <p class="muted">No context builds yet: compose a packet first.</p>
          ) : (
            <>
              <div class="buttons">
                <button
                  type="button"
                  disabled={picked.length !== 2}
                  onClick={() => go('builds', { ...base, a: picked[0], b: picked[1] })}
                >
                  Diff the two ticked
                </button>
              </div>
              <table class="builds">
                <TableHead columns={['Diff', 'Build', 'Purpose', 'Scope', ['Tokens', 'num'], 'Created']} />
                <tbody>
                  {page.items.map((build) => (
                    <tr key={build.id} class={build.id === open ? 'selected' : undefined}>
                      <td data-label="Diff">
                        <input
                          type="checkbox"
                          aria-label={`Tick ${build.id} for a diff`}
                          checked={picked.includes(build.id)}
                          onChange={() => toggle(build.id)}
                        />
                      </td>
                      <th scope="row" data-label="Build">
                        <a href={href('builds', { ...base, build: build.id })}>{build.id}</a>
                      </th>
                      <td data-label="Purpose">{build.purpose}</td>
                      <td data-label="Scope">
                        {build.user_id} / {build.session_id}
                      </td>
                      <td class="num" data-label="Tokens">
                        {build.packet.budget_report.used_tokens_est}
                      </td>
                      <td data-label="Created">
                        <Time at={build.created_at} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager paged={paged} label="Build pages" />
            </>
          )
        }
      </Status>
      {a !== undefined && b !== undefined ? (
        <Diff a={a} b={b} onClose={close} />
      ) : open === undefined ? null : (
        <BuildDetail id={open} onClose={close} />
      )}
    </section>
  );
}
