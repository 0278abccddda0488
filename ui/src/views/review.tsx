// Review queue: how much is pending for each user; a user's candidates grouped by kind, the same
// proposal made more than once shown (and decided) once, evidence quoted inline, a page at a time;
// tick several to approve or reject them together with a reason. Keys: j/k move between proposals,
// x ticks, a approves, e edits, r rejects, [ and ] turn the page.

import type { JSX } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';

import { api, query, type Page } from '../api.js';
import { Pager, pageSize, usePaged } from '../layout.js';
import { useCanWrite } from '../session.js';
import type { CandidateRecord, ScopeCounts } from '../../../src/client/index.js';
import { ErrorBox, hasScope, href, ScopeForm, scopeOf, Status, useAction, useLoad, type Route } from '../ui.js';
import { CandidateCard, type CardCommand } from './review-card.js';
import { approveGroup, groupsOf, KINDS, rejectGroup, type Group, type GroupDecision } from './review-groups.js';

const STATUSES = ['pending', 'approved', 'edited', 'rejected', 'all'];

/** The users with something to review, and how much. */
function PendingPerUser({ current }: { current: string }): JSX.Element | null {
  const scopes = useLoad(() => api<ScopeCounts>('GET', `/v1/scopes${query({ limit: 1 })}`), []);
  const users = (scopes.data?.users ?? []).filter((user) => user.pending_candidates > 0);
  if (users.length === 0) return null;
  return (
    <nav class="filters" aria-label="Pending per user">
      <span class="muted">Pending:</span>
      {users.map((user) => (
        <a
          key={user.user_id}
          class={user.user_id === current ? 'chip current' : 'chip'}
          href={href('review', { user_id: user.user_id })}
        >
          {user.user_id} · {user.pending_candidates}
        </a>
      ))}
    </nav>
  );
}

/** Approve or reject every ticked proposal, one after another. */
function BulkBar({
  ticked,
  groups,
  reviewer,
  onDecided,
  onTickAll,
  allTicked,
}: {
  ticked: Set<string>;
  groups: readonly Group[];
  reviewer: string;
  onDecided: (key: string, decision: GroupDecision) => void;
  onTickAll: () => void;
  allTicked: boolean;
}): JSX.Element {
  const [reason, setReason] = useState('');
  const action = useAction();
  const chosen = groups.filter((group) => ticked.has(group.key));
  const each = (decide: (group: Group) => Promise<GroupDecision>) =>
    action.run(async () => {
      for (const group of chosen) onDecided(group.key, await decide(group));
    });
  return (
    <div class="bulk" role="group" aria-label="Ticked proposals">
      <label class="check">
        <input type="checkbox" checked={allTicked} onChange={onTickAll} /> tick this page
      </label>
      <span>{chosen.length} ticked</span>
      <button
        type="button"
        class="primary"
        disabled={chosen.length === 0 || action.busy}
        onClick={() => void each((group) => approveGroup(group, reviewer, undefined))}
      >
        Approve ticked
      </button>
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          void each((group) => rejectGroup(group, reviewer, reason));
        }}
      >
        <input
          name="bulk-reason"
          aria-label="Reason for rejecting the ticked"
          placeholder="reason for rejecting"
          value={reason}
          required
          onInput={(event) => setReason((event.currentTarget as HTMLInputElement).value)}
        />
        <button type="submit" class="danger" disabled={chosen.length === 0 || action.busy}>
          Reject ticked
        </button>
      </form>
      <ErrorBox error={action.error} />
    </div>
  );
}

function Queue({
  candidates,
  status,
  reviewer,
}: {
  candidates: readonly CandidateRecord[];
  status: string;
  reviewer: string;
}): JSX.Element {
  const canWrite = useCanWrite();
  const [kind, setKind] = useState('');
  const groups = useMemo(() => groupsOf(candidates), [candidates]);
  const shown = kind === '' ? groups : groups.filter((group) => group.kind === kind);
  const paged = usePaged(shown, pageSize(6, 3), `${kind}/${status}/${candidates.length}`);
  const [ticked, setTicked] = useState<Set<string>>(new Set());
  const [decided, setDecided] = useState<Record<string, GroupDecision>>({});
  const [focus, setFocus] = useState(0);
  const [command, setCommand] = useState<{ key: string; command: CardCommand } | undefined>(undefined);
  const open = paged.items.filter((group) => decided[group.key] === undefined);
  const toggle = (key: string) =>
    setTicked((known) =>
      known.has(key) ? new Set([...known].filter((entry) => entry !== key)) : new Set([...known, key]),
    );
  const decide = (key: string, decision: GroupDecision) => {
    setDecided((known) => ({ ...known, [key]: decision }));
    setTicked((known) => new Set([...known].filter((entry) => entry !== key)));
  };
  useEffect(() => setFocus(0), [paged.page, kind]);
  // The keys act on what is shown now: the handler reads the latest page and focus, and is in place
  // as soon as the cards are.
  const latest = useRef({ paged, focus, toggle });
  latest.current = { paged, focus, toggle };
  useLayoutEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (
        event.altKey ||
        event.ctrlKey ||
        event.metaKey ||
        (event.target as HTMLElement | null)?.closest('input, textarea, select') !== null
      )
        return;
      const { paged: now, focus: at, toggle: tick } = latest.current;
      const group = now.items[at];
      const ask = (action: CardCommand['action']) => () =>
        group !== undefined && setCommand({ key: group.key, command: { action, n: Date.now() } });
      const keys: Record<string, () => void> = {
        j: () => setFocus(Math.min(now.items.length - 1, at + 1)),
        k: () => setFocus(Math.max(0, at - 1)),
        x: () => group !== undefined && tick(group.key),
        ']': () => now.setPage(Math.min(now.pages - 1, now.page + 1)),
        '[': () => now.setPage(Math.max(0, now.page - 1)),
        a: ask('approve'),
        e: ask('edit'),
        r: ask('reject'),
      };
      const handler = keys[event.key];
      if (handler === undefined) return;
      event.preventDefault();
      // The next key reads the focus this one set.
      if (event.key === 'j' || event.key === 'k')
        latest.current.focus = event.key === 'j' ? Math.min(now.items.length - 1, at + 1) : Math.max(0, at - 1);
      handler();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const counts = Object.fromEntries(KINDS.map((name) => [name, groups.filter((group) => group.kind === name).length]));
  let heading = '';
  return (
    <>
      <div class="filters" role="group" aria-label="Kinds">
        {['', ...KINDS].map((name) => (
          <button
            key={name}
            type="button"
            class={name === kind ? 'chip current' : 'chip'}
            aria-pressed={name === kind}
            onClick={() => setKind(name)}
          >
            {name === '' ? `every kind · ${groups.length}` : `${name} · ${counts[name] ?? 0}`}
          </button>
        ))}
      </div>
      {canWrite && status === 'pending' && groups.length > 0 ? (
        <BulkBar
          ticked={ticked}
          groups={groups}
          reviewer={reviewer}
          onDecided={decide}
          allTicked={open.length > 0 && open.every((group) => ticked.has(group.key))}
          onTickAll={() =>
            setTicked(
              open.every((group) => ticked.has(group.key))
                ? new Set()
                : new Set([...ticked, ...open.map((group) => group.key)]),
            )
          }
        />
      ) : null}
      <p class="muted shortcuts">
        Keys: <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>x</kbd> tick, <kbd>a</kbd> approve, <kbd>e</kbd> edit, <kbd>r</kbd>{' '}
        reject, <kbd>[</kbd>/<kbd>]</kbd> page. {groups.length} proposal{groups.length === 1 ? '' : 's'} from{' '}
        {candidates.length} candidate{candidates.length === 1 ? '' : 's'}.
      </p>
      <div class="cards">
        {paged.items.map((group, index) => {
          const title = group.kind === heading ? null : <h2 key={`${group.kind}-heading`}>{group.kind}</h2>;
          heading = group.kind;
          return (
            <div key={group.key}>
              {title}
              <CandidateCard
                group={group}
                reviewer={reviewer}
                canWrite={canWrite}
                ticked={ticked.has(group.key)}
                onTick={() => toggle(group.key)}
                decided={decided[group.key]}
                onDecided={(decision) => decide(group.key, decision)}
                command={command?.key === group.key ? command.command : undefined}
                focused={index === focus}
                onFocus={() => setFocus(index)}
              />
            </div>
          );
        })}
      </div>
      <Pager paged={paged} label="Review pages" total={shown.length} />
    </>
  );
}

export function ReviewView({ route }: { route: Route }): JSX.Element {
  const scope = scopeOf(route);
  const ready = hasScope(scope, ['user_id']);
  const status = route.params['status'] ?? 'pending';
  const [reviewer, setReviewer] = useState(() => localStorage.getItem('engram.inspector.reviewer') ?? 'inspector');
  const list = useLoad(
    () =>
      ready
        ? api<Page<CandidateRecord>>(
            'GET',
            `/v1/review${query({ user_id: scope.user_id, agent_id: scope.agent_id, status: status === 'all' ? undefined : [status], limit: 1000 })}`,
          )
        : Promise.resolve({ items: [], next_cursor: null }),
    [scope.user_id, scope.agent_id, status],
  );
  return (
    <section aria-labelledby="review-title">
      <h1 id="review-title">Review queue</h1>
      <PendingPerUser current={scope.user_id} />
      <ScopeForm view="review" scope={scope} need={['user_id']} also={['agent_id']} extra={{ status }} />
      <div class="filters" role="group" aria-label="Filters">
        {STATUSES.map((name) => (
          <a
            key={name}
            class={name === status ? 'chip current' : 'chip'}
            aria-current={name === status ? 'true' : undefined}
            href={href('review', { user_id: scope.user_id, agent_id: scope.agent_id, status: name })}
          >
            {name}
          </a>
        ))}
        <label class="field inline">
          <span>Reviewer</span>
          <input
            name="reviewer"
            value={reviewer}
            onInput={(event) => {
              const value = (event.currentTarget as HTMLInputElement).value;
              setReviewer(value);
              localStorage.setItem('engram.inspector.reviewer', value);
            }}
          />
        </label>
      </div>
      {!ready ? <p class="muted">Choose a user, or open one from Scopes.</p> : null}
      <Status state={list}>
        {(page) =>
          page.items.length === 0 ? (
            ready ? (
              <p class="muted">Nothing {status === 'all' ? '' : status} to review.</p>
            ) : null
          ) : (
            <Queue candidates={page.items} status={status} reviewer={reviewer} />
          )
        }
      </Status>
    </section>
  );
}
