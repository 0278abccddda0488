// The Engram web inspector: log in with an API key (pasted, or from the login link `engram serve`
// prints), then move between scopes, timelines, memory, the review queue, the compose playground,
// context builds and snapshots. Every view reads and writes through the HTTP API only.

import type { JSX } from 'preact';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';

import { adoptKeyFromLocation, api, ApiError, currentKey, setKey } from './api.js';
import { WhoamiContext } from './session.js';
import type { KeyIdentity } from '../../src/client/index.js';
import { ErrorBox, readRoute, type Route } from './ui.js';
import { BuildsView } from './views/builds.js';
import { ComposeView } from './views/compose.js';
import { MemoryView } from './views/memory.js';
import { ReviewView } from './views/review.js';
import { ScopesView } from './views/scopes.js';
import { SnapshotsView } from './views/snapshots.js';
import { EventView, TimelineView } from './views/timeline.js';

const VIEWS: Array<{ id: string; label: string; show: (route: Route) => JSX.Element }> = [
  { id: 'scopes', label: 'Scopes', show: () => <ScopesView /> },
  { id: 'timeline', label: 'Timeline', show: (route) => <TimelineView route={route} /> },
  { id: 'memory', label: 'Memory', show: (route) => <MemoryView route={route} /> },
  { id: 'review', label: 'Review', show: (route) => <ReviewView route={route} /> },
  { id: 'compose', label: 'Compose', show: (route) => <ComposeView route={route} /> },
  { id: 'builds', label: 'Builds', show: (route) => <BuildsView route={route} /> },
  { id: 'snapshots', label: 'Snapshots', show: (route) => <SnapshotsView route={route} /> },
];

/** Parameters that stay when moving between views (the scope being looked at). */
const KEPT = ['user_id', 'agent_id', 'session_id', 'run_id'];

function useRoute(): Route {
  const [route, setRoute] = useState(readRoute);
  useEffect(() => {
    const changed = () => setRoute(readRoute());
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return route;
}

type Session = 'checking' | 'signed-in' | 'signed-out';

function Login({ onSignedIn, problem }: { onSignedIn: () => void; problem: unknown }): JSX.Element {
  const [key, setDraft] = useState('');
  const [error, setError] = useState<unknown>(problem);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    setError(undefined);
    setKey(key.trim());
    try {
      await api('GET', '/v1/scopes?limit=1');
      onSignedIn();
    } catch (failure) {
      setKey(null);
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="login" id="main">
      <h1>Engram inspector</h1>
      <p>
        Paste an API key of your tenant. `engram serve` prints a login link with the admin key on its first start;
        `engram keys create` makes more (a read key can look, a write key can also review).
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <label class="field wide">
          <span>API key</span>
          <input
            name="key"
            type="password"
            autoComplete="off"
            value={key}
            required
            autoFocus
            onInput={(event) => setDraft((event.currentTarget as HTMLInputElement).value)}
          />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Checking…' : 'Log in'}
        </button>
      </form>
      <ErrorBox error={error} />
      <p class="muted">The key stays in this browser tab (session storage) and is sent only to this server.</p>
    </main>
  );
}

/** The logged-in key, read once signed in (null until then, or when the server cannot say). */
function useWhoamiOf(session: Session): KeyIdentity | null {
  const [who, setWho] = useState<KeyIdentity | null>(null);
  useEffect(() => {
    if (session !== 'signed-in') return setWho(null);
    api<KeyIdentity>('GET', '/v1/whoami').then(setWho, () => setWho(null));
  }, [session]);
  return who;
}

function App(): JSX.Element {
  const route = useRoute();
  const [session, setSession] = useState<Session>('checking');
  const [problem, setProblem] = useState<unknown>(undefined);
  const who = useWhoamiOf(session);
  useEffect(() => {
    // A server without auth answers without a key; otherwise a stored key must still be valid.
    api('GET', '/v1/scopes?limit=1').then(
      () => setSession('signed-in'),
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 401) {
          if (currentKey() !== null) setProblem(error);
          setKey(null);
        } else setProblem(error);
        setSession('signed-out');
      },
    );
  }, []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.altKey || event.ctrlKey || event.metaKey || target?.closest('input, textarea, select') !== null) return;
      const index = Number(event.key) - 1;
      const view = VIEWS[index];
      if (view === undefined) return;
      event.preventDefault();
      const kept = Object.fromEntries(Object.entries(readRoute().params).filter(([name]) => KEPT.includes(name)));
      window.location.hash = `#/${view.id}${Object.keys(kept).length === 0 ? '' : `?${new URLSearchParams(kept).toString()}`}`;
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    document.title = `${VIEWS.find((view) => view.id === route.view)?.label ?? 'Event'} · Engram inspector`;
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [route.view]);
  if (session === 'checking') return <p class="boot">Connecting…</p>;
  if (session === 'signed-out') return <Login problem={problem} onSignedIn={() => setSession('signed-in')} />;
  const kept = Object.fromEntries(Object.entries(route.params).filter(([name]) => KEPT.includes(name)));
  const suffix = Object.keys(kept).length === 0 ? '' : `?${new URLSearchParams(kept).toString()}`;
  const current = VIEWS.find((view) => view.id === route.view);
  return (
    <WhoamiContext.Provider value={who}>
      <a
        class="skip"
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <header class="top">
        <strong class="brand">Engram</strong>
        <nav aria-label="Views">
          {VIEWS.map((view, index) => (
            <a
              key={view.id}
              href={`#/${view.id}${suffix}`}
              aria-current={view.id === route.view ? 'page' : undefined}
              title={`${view.label} (key ${index + 1})`}
            >
              {view.label}
            </a>
          ))}
        </nav>
        {who === null ? null : (
          <span class="who" title={`key ${who.key_id}`}>
            {who.label} ({who.role})
          </span>
        )}
        {currentKey() === null ? (
          <span class="muted">no key needed (auth off)</span>
        ) : (
          <button
            type="button"
            onClick={() => {
              setKey(null);
              setSession('signed-out');
            }}
          >
            Log out
          </button>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {current !== undefined ? (
          current.show(route)
        ) : route.view === 'event' ? (
          <EventView route={route} />
        ) : (
          <p>There is no view “{route.view}”.</p>
        )}
      </main>
    </WhoamiContext.Provider>
  );
}

// Before the first render: a login link's key must never be read as a view or shown.
adoptKeyFromLocation();
render(<App />, document.getElementById('app')!);
