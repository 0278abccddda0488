// Pieces that keep a view's size in hand: a drawer that opens over the page instead of squeezing it,
// a pager for long lists (a page fits the screen, so no view grows past a few screens), and tabs.

import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

import type { Page } from './api.js';
import { type Loaded, useLoad } from './ui.js';

/**
 * A panel over the right of the page (the whole screen on a phone), with a close button; Escape
 * closes it too. The page under it keeps its full width.
 */
export function Drawer({
  title,
  labelId,
  onClose,
  children,
}: {
  title: ComponentChildren;
  labelId: string;
  onClose: () => void;
  children: ComponentChildren;
}): JSX.Element {
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && (event.target as HTMLElement | null)?.closest('input, textarea, select') === null)
        onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  useEffect(() => panel.current?.focus({ preventScroll: true }), [labelId]);
  return (
    <>
      <div class="backdrop" onClick={onClose} />
      <aside class="panel drawer" aria-labelledby={labelId} tabIndex={-1} ref={panel}>
        <div class="drawer-head">
          <h2 id={labelId}>{title}</h2>
          <button type="button" class="close" onClick={onClose} aria-label="Close the panel">
            ×
          </button>
        </div>
        {children}
      </aside>
    </>
  );
}

/** Items per page: fewer on a narrow screen, where each takes more height. */
export function pageSize(wide: number, narrow = Math.max(3, Math.floor(wide / 2))): number {
  return window.innerWidth < 700 ? narrow : wide;
}

/** A page of a list and the controls to move through it. */
export interface Paged<T> {
  items: T[];
  page: number;
  pages: number;
  setPage: (page: number) => void;
}

/**
 * One page of `all` at a time; the page goes back to the first when the list's `key` changes.
 *
 * @example
 * const paged = usePaged(items, 20, scope.user_id);
 */
export function usePaged<T>(all: readonly T[], size: number, key: unknown = undefined): Paged<T> {
  const [page, setPage] = useState(0);
  useEffect(() => setPage(0), [key]);
  const pages = Math.max(1, Math.ceil(all.length / size));
  const current = Math.min(page, pages - 1);
  return { items: all.slice(current * size, current * size + size), page: current, pages, setPage };
}

/** Previous and next buttons with "page n of m" (nothing when there is one page). */
export function Pager({
  paged,
  label,
  total,
}: {
  paged: Pick<Paged<unknown>, 'page' | 'pages' | 'setPage'>;
  label: string;
  total?: number;
}): JSX.Element | null {
  if (paged.pages <= 1) return null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={paged.page === 0} onClick={() => paged.setPage(paged.page - 1)}>
        ← Previous
      </button>
      <span>
        page {paged.page + 1} of {paged.pages}
        {total === undefined ? '' : ` (${total})`}
      </span>
      <button type="button" disabled={paged.page >= paged.pages - 1} onClick={() => paged.setPage(paged.page + 1)}>
        Next →
      </button>
    </nav>
  );
}

/**
 * A list route read a page at a time by its cursor (`next_cursor`), remembering where each page
 * started so Previous works; back to the first page when `deps` change.
 *
 * @example
 * const { state, paged } = useCursorPages((cursor) => api<Page<BuildRecord>>('GET', `/v1/builds${query({ limit: 20, cursor })}`), [user]);
 */
export function useCursorPages<T>(
  load: (cursor: string | undefined) => Promise<Page<T>>,
  deps: readonly unknown[],
  first: string | undefined = undefined,
): { state: Loaded<Page<T>>; paged: Pick<Paged<T>, 'page' | 'pages' | 'setPage'> } {
  const [starts, setStarts] = useState<Array<string | undefined>>([first]);
  const [page, setPage] = useState(0);
  useEffect(() => {
    setStarts([first]);
    setPage(0);
  }, [...deps, first]);
  const cursor = starts[page];
  const state = useLoad(() => load(cursor), [...deps, cursor]);
  const next = state.data?.next_cursor ?? null;
  const paged = {
    page,
    pages: next === null ? page + 1 : page + 2,
    setPage: (to: number) => {
      if (to > page && next !== null) setStarts((known) => [...known.slice(0, page + 1), next]);
      setPage(to);
    },
  };
  return { state, paged };
}

/** Tabs: one panel shown at a time (the caller keeps which), the tab list moved through with the arrow keys. */
export function Tabs({
  tabs,
  label,
  current,
  onChange,
}: {
  tabs: ReadonlyArray<{ id: string; label: string; show: () => ComponentChildren }>;
  label: string;
  current: string;
  onChange: (id: string) => void;
}): JSX.Element {
  const shown = tabs.find((tab) => tab.id === current) ?? tabs[0];
  const move = (step: number) => {
    const at = tabs.findIndex((tab) => tab.id === shown?.id);
    const next = tabs[(at + step + tabs.length) % tabs.length];
    if (next !== undefined) {
      onChange(next.id);
      document.getElementById(`tab-${next.id}`)?.focus();
    }
  };
  return (
    <div class="tabs">
      <div
        role="tablist"
        aria-label={label}
        onKeyDown={(event) => (event.key === 'ArrowRight' ? move(1) : event.key === 'ArrowLeft' ? move(-1) : undefined)}
      >
        {tabs.map((tab) => (
          <button
            key={tab.id}
            id={`tab-${tab.id}`}
            type="button"
            role="tab"
            aria-selected={tab.id === shown?.id}
            aria-controls={`panel-${tab.id}`}
            tabIndex={tab.id === shown?.id ? 0 : -1}
            onClick={() => onChange(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {shown === undefined ? null : (
        <div role="tabpanel" id={`panel-${shown.id}`} aria-labelledby={`tab-${shown.id}`} class="tab-panel">
          {shown.show()}
        </div>
      )}
    </div>
  );
}
