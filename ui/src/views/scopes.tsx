// Scopes: the tenant's users (current items, pending candidates) and sessions (run, events, time
// span), each a link into the views about it.

import type { JSX } from 'preact';

import { api, query } from '../api.js';
import { Pager, pageSize, usePaged } from '../layout.js';
import type { ScopeCounts, SessionCounts } from '../../../src/client/index.js';
import { href, Status, TableHead, Time, useLoad } from '../ui.js';

/** The tenant's sessions, most recently active first, a page at a time. */
function Sessions({ sessions }: { sessions: SessionCounts[] }): JSX.Element {
  const paged = usePaged(sessions, pageSize(15, 6), sessions.length);
  if (sessions.length === 0) return <p class="muted">No sessions yet.</p>;
  return (
    <>
      <table class="sessions">
        <TableHead
          columns={['User', 'Agent', 'Session', 'Run', ['Events', 'num'], 'First event', 'Last event', 'Open']}
        />
        <tbody>
          {paged.items.map((s) => {
            const scope = { user_id: s.user_id, agent_id: s.agent_id, session_id: s.session_id, run_id: s.run_id };
            return (
              <tr key={`${s.user_id}/${s.agent_id}/${s.session_id}/${s.run_id}`}>
                <td data-label="User">{s.user_id}</td>
                <td data-label="Agent">{s.agent_id}</td>
                <td data-label="Session">{s.session_id}</td>
                <td data-label="Run">{s.run_id}</td>
                <td class="num" data-label="Events">
                  {s.events}
                </td>
                <td data-label="First event">
                  <Time at={s.first_ts} />
                </td>
                <td data-label="Last event">
                  <Time at={s.last_ts} />
                </td>
                <td class="actions" data-label="Open">
                  <a href={href('timeline', scope)}>timeline</a> <a href={href('compose', scope)}>compose</a>{' '}
                  <a href={href('snapshots', scope)}>snapshots</a>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <Pager paged={paged} label="Session pages" total={sessions.length} />
    </>
  );
}

export function ScopesView(): JSX.Element {
  const state = useLoad(() => api<ScopeCounts>('GET', `/v1/scopes${query({ limit: 500 })}`), []);
  return (
    <section aria-labelledby="scopes-title">
      <h1 id="scopes-title">Scopes</h1>
      <Status state={state}>
        {(scopes) => {
          const agentsOf = (user: string) => [
            ...new Set(scopes.sessions.filter((s) => s.user_id === user).map((s) => s.agent_id)),
          ];
          return (
            <>
              <h2>Users</h2>
              {scopes.users.length === 0 ? (
                <p class="muted">This tenant has no users yet: commit a turn (POST /v1/turns) and it appears here.</p>
              ) : (
                <table>
                  <TableHead columns={['User', 'Agents', ['Current items', 'num'], ['Pending review', 'num']]} />
                  <tbody>
                    {scopes.users.map((user) => {
                      const agent = agentsOf(user.user_id)[0] ?? '';
                      return (
                        <tr key={user.user_id}>
                          <th scope="row">{user.user_id}</th>
                          <td>{agentsOf(user.user_id).join(', ') || <span class="muted">—</span>}</td>
                          <td class="num">
                            <a href={href('memory', { user_id: user.user_id, agent_id: agent })}>{user.items}</a>
                          </td>
                          <td class="num">
                            <a href={href('review', { user_id: user.user_id })}>{user.pending_candidates}</a>
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              )}
              <h2>Sessions</h2>
              <Sessions sessions={scopes.sessions} />
            </>
          );
        }}
      </Status>
    </section>
  );
}
