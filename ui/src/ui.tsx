// Small pieces every view uses: loading and error states, badges, times, JSON, the scope picker and
// hash links (every view's state lives in the address, so a link or reload shows the same thing).

import type { ComponentChildren, JSX } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';

import { ApiError } from './api.js';

/** The view and its parameters, from the address (`#/memory?user_id=mira&agent_id=assistant`). */
export interface Route {
  view: string;
  params: Record<string, string>;
}

/** Reads the route from location.hash. */
export function readRoute(): Route {
  const hash = window.location.hash.replace(/^#\/?/, '');
  const [view = '', search = ''] = hash.split('?', 2);
  return { view: view === '' ? 'scopes' : view, params: Object.fromEntries(new URLSearchParams(search)) };
}

/** The address of a view with parameters (empty ones left out). */
export function href(view: string, params: Record<string, string | undefined | null> = {}): string {
  const kept = Object.entries(params).filter(
    (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== null && entry[1] !== '',
  );
  return `#/${view}${kept.length === 0 ? '' : `?${new URLSearchParams(kept).toString()}`}`;
}

/** Goes to a view (adds a history entry). */
export function go(view: string, params: Record<string, string | undefined | null> = {}): void {
  window.location.hash = href(view, params);
}

/** The state of one asynchronous read. */
export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/**
 * Runs `load` when its dependencies change (and on reload()); keeps the last answer.
 *
 * @example
 * const items = useLoad(() => api<Page<ItemRecord>>('GET', path), [path]);
 */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((previous) => ({ ...previous, loading: true, error: undefined }));
    load().then(
      (data) => live && setState({ data, error: undefined, loading: false }),
      (error: unknown) => live && setState({ data: undefined, error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((value) => value + 1), []);
  return { ...state, reload };
}

/** A write the user starts: whether it runs, its error, and `run` (which resolves to its result, or undefined on failure). */
export interface Action {
  busy: boolean;
  error: unknown;
  run: <T>(work: () => Promise<T>) => Promise<T | undefined>;
  clear: () => void;
}

/**
 * Runs writes one at a time and keeps their error for an ErrorBox.
 *
 * @example
 * const action = useAction();
 * await action.run(() => api('POST', '/v1/items/restore', body));
 */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const run = async <T,>(work: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(undefined);
    try {
      return await work();
    } catch (failure) {
      setError(failure);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, clear: () => setError(undefined) };
}

/**
 * A form that acts on one thing: its fields, the error of its last try, a submit button (off while
 * the action runs or when `disabled`) and Cancel.
 *
 * @example
 * <ActionForm submit="Retract" tone="danger" action={action} onSubmit={retract} onCancel={close}>…fields…</ActionForm>
 */
export function ActionForm(props: {
  submit: string;
  tone: 'primary' | 'danger';
  onSubmit: () => void;
  onCancel: () => void;
  action?: Action;
  disabled?: boolean;
  class?: string;
  label?: string;
  children: ComponentChildren;
}): JSX.Element {
  return (
    <form
      {...(props.class === undefined ? {} : { class: props.class })}
      {...(props.label === undefined ? {} : { 'aria-label': props.label })}
      onSubmit={(event) => {
        event.preventDefault();
        props.onSubmit();
      }}
    >
      {props.children}
      {props.action === undefined ? null : <ErrorBox error={props.action.error} />}
      <div class="buttons">
        <button type="submit" class={props.tone} disabled={props.action?.busy === true || props.disabled === true}>
          {props.submit}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * JSON typed into a form, or undefined once the action's error says why it is not JSON.
 *
 * @example
 * const typed = typedJson(action, text, 'the value');
 * if (typed !== undefined) await action.run(() => save(typed.value));
 */
export function typedJson(action: Action, text: string, what: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (failure) {
    void action.run(() => Promise.reject(new Error(`${what} is not JSON: ${errorText(failure)}`)));
    return undefined;
  }
}

/** A message for any error: the API's code, field and detail, or the error's own message. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.describe();
  return error instanceof Error ? error.message : String(error);
}

/** An error from the API, announced to screen readers. */
export function ErrorBox({ error }: { error: unknown }): JSX.Element | null {
  if (error === undefined || error === null) return null;
  const requestId = error instanceof ApiError ? error.requestId : null;
  return (
    <div class="error" role="alert">
      <strong>The request failed.</strong> {errorText(error)}
      {requestId === null ? null : <span class="muted"> (request {requestId})</span>}
    </div>
  );
}

/** Loading, error or the content. */
export function Status<T>({
  state,
  children,
}: {
  state: Loaded<T>;
  children: (data: T) => ComponentChildren;
}): JSX.Element {
  if (state.error !== undefined) return <ErrorBox error={state.error} />;
  if (state.data === undefined)
    return (
      <p class="muted" aria-busy="true">
        Loading…
      </p>
    );
  return <>{children(state.data)}</>;
}

/** A small coloured label. */
export function Badge({
  tone = 'plain',
  children,
  title,
}: {
  tone?: string;
  children: ComponentChildren;
  title?: string;
}): JSX.Element {
  return (
    <span class={`badge badge-${tone}`} title={title}>
      {children}
    </span>
  );
}

const STATUS_TONES: Record<string, string> = {
  active: 'good',
  pending: 'warn',
  approved: 'good',
  edited: 'good',
  superseded: 'muted',
  retracted: 'bad',
  rejected: 'bad',
  PASS: 'good',
  FAIL: 'bad',
  secret: 'bad',
  private: 'warn',
};

/** A status with its colour. */
export function StatusBadge({ status }: { status: string }): JSX.Element {
  return <Badge tone={STATUS_TONES[status] ?? 'plain'}>{status}</Badge>;
}

/** A time, short, with the full ISO time on hover. */
export function Time({ at }: { at: string | null | undefined }): JSX.Element {
  if (at === null || at === undefined) return <span class="muted">—</span>;
  const date = new Date(at);
  const text = Number.isNaN(date.getTime()) ? at : date.toISOString().replace('T', ' ').slice(0, 19);
  return (
    <time dateTime={at} title={at}>
      {text}
    </time>
  );
}

/** JSON, pretty, in a scrollable block. */
export function Json({ value, label }: { value: unknown; label?: string }): JSX.Element {
  return (
    <pre class="json" aria-label={label} tabIndex={0}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

/** A labelled text input bound to a value. */
export function Field({
  label,
  value,
  onInput,
  placeholder,
  name,
  type = 'text',
  required = false,
}: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  placeholder?: string;
  name: string;
  type?: 'text' | 'number' | 'datetime-local' | 'password';
  required?: boolean;
}): JSX.Element {
  return (
    <label class="field">
      <span>{label}</span>
      <input
        name={name}
        type={type as 'text'}
        value={value}
        placeholder={placeholder}
        required={required}
        onInput={(event) => onInput((event.currentTarget as HTMLInputElement).value)}
      />
    </label>
  );
}

/** The user, agent, session and run a view is about, from the route. */
export interface ScopeParams {
  user_id: string;
  agent_id: string;
  session_id: string;
  run_id: string;
}

/** The scope of a route (empty strings for what it does not name). */
export function scopeOf(route: Route): ScopeParams {
  const p = route.params;
  return {
    user_id: p['user_id'] ?? '',
    agent_id: p['agent_id'] ?? '',
    session_id: p['session_id'] ?? '',
    run_id: p['run_id'] ?? '',
  };
}

/**
 * A form to choose the scope of a view; submitting goes to the view with it.
 * `need` names the fields the view requires.
 */
export function ScopeForm({
  view,
  scope,
  need,
  also = [],
  extra = {},
}: {
  view: string;
  scope: ScopeParams;
  need: ReadonlyArray<keyof ScopeParams>;
  /** Fields shown but optional. */
  also?: ReadonlyArray<keyof ScopeParams>;
  extra?: Record<string, string>;
}): JSX.Element {
  const [draft, setDraft] = useState(scope);
  useEffect(() => setDraft(scope), [scope.user_id, scope.agent_id, scope.session_id, scope.run_id]);
  const fields: Array<[keyof ScopeParams, string]> = [
    ['user_id', 'User'],
    ['agent_id', 'Agent'],
    ['session_id', 'Session'],
    ['run_id', 'Run'],
  ];
  return (
    <form
      class="scope-form"
      aria-label="Scope"
      onSubmit={(event) => {
        event.preventDefault();
        go(view, { ...extra, ...draft });
      }}
    >
      {fields
        .filter(([name]) => need.includes(name) || also.includes(name))
        .map(([name, label]) => (
          <Field
            key={name}
            name={name}
            label={need.includes(name) ? label : `${label} (optional)`}
            value={draft[name]}
            required={need.includes(name)}
            onInput={(value) => setDraft({ ...draft, [name]: value })}
          />
        ))}
      <button type="submit">Show</button>
    </form>
  );
}

/** Whether every needed part of the scope is set. */
export function hasScope(scope: ScopeParams, need: ReadonlyArray<keyof ScopeParams>): boolean {
  return need.every((name) => scope[name] !== '');
}

/** Text of an event's content for display (objects as compact JSON). */
export function contentText(content: unknown): string {
  return typeof content === 'string' ? content : JSON.stringify(content);
}

/** A table's header row: column labels, `[label, 'num']` for a right-aligned number column. */
export function TableHead({ columns }: { columns: ReadonlyArray<string | readonly [string, 'num']> }): JSX.Element {
  return (
    <thead>
      <tr>
        {columns.map((column) =>
          typeof column === 'string' ? (
            <th key={column} scope="col">
              {column}
            </th>
          ) : (
            <th key={column[0]} scope="col" class="num">
              {column[0]}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}
