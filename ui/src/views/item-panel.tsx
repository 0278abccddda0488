// One item in a drawer: the line a packet shows, its key, type, status, dates, confidence and
// provenance, its sources as quoted text, every version of its key, and the corrections a write key
// may make: edit the value (a new version), retract, delete (after a dry run says what goes) and
// restore an earlier version. Each is one API call; the server stamps the key's label on edits.

import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';

import { api, query, type Page } from '../api.js';
import { Drawer } from '../layout.js';
import { Quotes } from '../quotes.js';
import { useCanWrite } from '../session.js';
import type { ItemDiff, ItemRecord } from '../../../src/client/index.js';
import {
  ActionForm,
  ErrorBox,
  go,
  href,
  Json,
  type ScopeParams,
  Status,
  StatusBadge,
  Time,
  typedJson,
  useAction,
  useLoad,
} from '../ui.js';
import { ItemStatus, Validity } from './item-parts.js';

/** The scope a correction of the item is written in: its own user and agent, else the view's. */
interface Writer {
  user_id: string;
  agent_id: string;
}

/** The rule a correction names: the server replaces it with `inspector:<key label>`. */
const RULE = 'inspector';

/** The version a write made (created or updated), if any. */
const written = (diffs: ItemDiff[]) =>
  diffs.find((diff) => diff.action === 'created' || diff.action === 'updated')?.item_id;

function EditForm({
  item,
  writer,
  onDone,
  onCancel,
}: {
  item: ItemRecord;
  writer: Writer;
  onDone: (id: string | undefined) => void;
  onCancel: () => void;
}): JSX.Element {
  const [text, setText] = useState(() => JSON.stringify(item.value, null, 2));
  const action = useAction();
  const save = async () => {
    const typed = typedJson(action, text, 'the value');
    if (typed === undefined) return;
    const body = {
      scope: writer,
      type: item.type,
      key: item.key,
      value: typed.value,
      replace: true,
      rule: RULE,
      scope_level: item.scope_level,
      ...(item.sensitivity === 'normal' ? {} : { sensitivity: 'private' }),
    };
    const answer = await action.run(() => api<{ diffs: ItemDiff[] }>('POST', '/v1/items', body));
    if (answer !== undefined) onDone(written(answer.diffs));
  };
  return (
    <ActionForm
      class="correction"
      submit="Save as a new version"
      tone="primary"
      action={action}
      onSubmit={() => void save()}
      onCancel={onCancel}
    >
      <label class="field wide">
        <span>The value (JSON); saving writes version {item.version + 1}, this one stays in the history</span>
        <textarea
          name="value"
          rows={8}
          value={text}
          onInput={(event) => setText((event.currentTarget as HTMLTextAreaElement).value)}
        />
      </label>
    </ActionForm>
  );
}

function RetractForm({
  item,
  writer,
  onDone,
  onCancel,
}: {
  item: ItemRecord;
  writer: Writer;
  onDone: () => void;
  onCancel: () => void;
}): JSX.Element {
  const [reason, setReason] = useState('');
  const action = useAction();
  const retract = async () => {
    const body = {
      scope: writer,
      item_id: item.id,
      mode: 'retract',
      ...(reason.trim() === '' ? {} : { reason: reason.trim() }),
    };
    if ((await action.run(() => api('POST', '/v1/items/forget', body))) !== undefined) onDone();
  };
  return (
    <ActionForm
      class="correction"
      submit="Retract"
      tone="danger"
      action={action}
      onSubmit={() => void retract()}
      onCancel={onCancel}
    >
      <p>Retracting ends this version now: packets stop using it, and the history keeps it (it can be restored).</p>
      <label class="field wide">
        <span>Reason (optional)</span>
        <input
          name="reason"
          value={reason}
          onInput={(event) => setReason((event.currentTarget as HTMLInputElement).value)}
        />
      </label>
    </ActionForm>
  );
}

/** Delete, confirmed: a dry run lists every version that would go before anything does. */
function DeleteForm({
  item,
  writer,
  versions,
  onDone,
  onCancel,
}: {
  item: ItemRecord;
  writer: Writer;
  versions: readonly ItemRecord[];
  onDone: () => void;
  onCancel: () => void;
}): JSX.Element {
  const [which, setWhich] = useState<'key' | 'version'>('key');
  const [planned, setPlanned] = useState<ItemDiff[] | undefined>(undefined);
  const action = useAction();
  const body =
    which === 'key'
      ? { scope: writer, key: item.key, scope_level: item.scope_level, mode: 'delete' }
      : { scope: writer, item_id: item.id, mode: 'delete' };
  useEffect(() => {
    setPlanned(undefined);
    void action
      .run(() => api<{ diffs: ItemDiff[] }>('POST', '/v1/items/forget', { ...body, dry_run: true }))
      .then((answer) => setPlanned(answer?.diffs));
  }, [which, item.id]);
  const remove = async () => {
    if ((await action.run(() => api('POST', '/v1/items/forget', body))) !== undefined) onDone();
  };
  const textOf = (id: string) => versions.find((version) => version.id === id);
  return (
    <ActionForm
      class="correction"
      label="Confirm the deletion"
      submit={`Delete ${planned?.length ?? ''} version${planned?.length === 1 ? '' : 's'}`}
      tone="danger"
      action={action}
      disabled={planned === undefined || planned.length === 0}
      onSubmit={() => void remove()}
      onCancel={onCancel}
    >
      <fieldset>
        <legend>Delete</legend>
        <label class="check">
          <input type="radio" name="which" checked={which === 'key'} onChange={() => setWhich('key')} /> every version
          of {item.key}
        </label>
        <label class="check">
          <input type="radio" name="which" checked={which === 'version'} onChange={() => setWhich('version')} /> only
          version {item.version}
        </label>
      </fieldset>
      {planned === undefined ? (
        <p aria-busy="true">Finding what would go…</p>
      ) : (
        <div class="confirm" role="status">
          <p>
            <strong>
              This deletes {planned.length} version{planned.length === 1 ? '' : 's'} for good
            </strong>
            , with {planned.length === 1 ? 'its' : 'their'} search entries and vectors; nothing keeps a copy and it
            cannot be undone:
          </p>
          <ul aria-label="What goes">
            {planned.map((diff) => (
              <li key={diff.item_id}>
                v{diff.version} “{textOf(diff.item_id)?.text ?? diff.key}”{' '}
                {textOf(diff.item_id) === undefined ? null : <StatusBadge status={textOf(diff.item_id)!.status} />}
              </li>
            ))}
          </ul>
        </div>
      )}
    </ActionForm>
  );
}

function Restore({
  version,
  writer,
  onDone,
}: {
  version: ItemRecord;
  writer: Writer;
  onDone: (id: string | undefined) => void;
}): JSX.Element {
  const action = useAction();
  const restore = async () => {
    const answer = await action.run(() =>
      api<{ diffs: ItemDiff[] }>('POST', '/v1/items/restore', { scope: writer, item_id: version.id, rule: RULE }),
    );
    if (answer !== undefined) onDone(written(answer.diffs));
  };
  return (
    <>
      <button
        type="button"
        class="small"
        disabled={action.busy}
        onClick={() => void restore()}
        aria-label={`Restore version ${version.version}`}
      >
        Restore v{version.version}
      </button>
      <ErrorBox error={action.error} />
    </>
  );
}

function History({
  versions,
  current,
  scope,
  writer,
  onRestored,
}: {
  versions: readonly ItemRecord[];
  current: string;
  scope: ScopeParams;
  writer: Writer | null;
  onRestored: (id: string | undefined) => void;
}): JSX.Element {
  return (
    <ol class="history" aria-label="Version history">
      {versions.map((version) => (
        <li key={version.id} class={version.id === current ? 'selected' : undefined}>
          <a href={href('memory', { ...scope, item: version.id })}>v{version.version}</a>{' '}
          <StatusBadge status={version.status} /> “{version.text}”
          <div class="muted">
            <Time at={version.recorded_at} /> ·{' '}
            {version.provenance['extractor'] === undefined ? '' : `${String(version.provenance['extractor'])}: `}
            {String(version.provenance['rule'] ?? '')}
            {version.ended_at === null ? null : (
              <>
                {' '}
                · ended <Time at={version.ended_at} />
              </>
            )}
          </div>
          {writer === null || version.status === 'active' ? null : (
            <Restore version={version} writer={writer} onDone={onRestored} />
          )}
        </li>
      ))}
    </ol>
  );
}

type Mode = 'view' | 'edit' | 'retract' | 'delete';

function ItemBody({
  item,
  scope,
  disputed,
  onChanged,
  onClose,
}: {
  item: ItemRecord;
  scope: ScopeParams;
  disputed: Set<string>;
  onChanged: () => void;
  onClose: () => void;
}): JSX.Element {
  const [mode, setMode] = useState<Mode>('view');
  const [tick, setTick] = useState(0);
  useEffect(() => setMode('view'), [item.id]);
  const canWrite = useCanWrite();
  const who = { user_id: item.user_id ?? scope.user_id, agent_id: item.agent_id ?? scope.agent_id };
  const writer = canWrite && who.agent_id !== '' ? who : null;
  const history = useLoad(
    () =>
      api<Page<ItemRecord>>(
        'GET',
        `/v1/items/history${query({ user_id: who.user_id, agent_id: who.agent_id, key: item.key })}`,
      ),
    [item.key, item.id, tick],
  );
  const versions = history.data?.items ?? [];
  /** After a write: the lists again, and the version it wrote opened (or this one read again). */
  const changed = (id?: string) => {
    setMode('view');
    setTick((value) => value + 1);
    onChanged();
    if (id !== undefined && id !== item.id) go('memory', { ...scope, item: id });
  };
  const provenance = item.provenance as { extractor?: string; rule?: string; model?: string };
  return (
    <>
      <p class="key">
        {item.type} · {item.key}
      </p>
      <p>
        <ItemStatus item={item} disputed={disputed.has(item.id)} /> version {item.version}, confidence{' '}
        {item.confidence.toFixed(2)}, {item.scope_level} level
        {item.sensitivity === 'normal' ? '' : `, ${item.sensitivity}`}
      </p>
      <dl class="facts">
        <dt>Valid</dt>
        <dd>
          <Validity item={item} />
        </dd>
        <dt>Recorded</dt>
        <dd>
          <Time at={item.recorded_at} />
          {item.ended_at === null ? null : (
            <>
              , ended <Time at={item.ended_at} />
            </>
          )}
        </dd>
        <dt>Provenance</dt>
        <dd>
          {provenance.extractor ?? '—'} · {provenance.rule ?? '—'}
          {provenance.model === undefined ? '' : ` · ${provenance.model}`}
        </dd>
      </dl>
      <h3>Sources</h3>
      <Quotes ids={item.source_event_ids} shown={3} label="Sources" />
      {!canWrite ? (
        <p class="muted">This key can read only: corrections need a write key.</p>
      ) : writer === null ? (
        <p class="muted">Choose an agent (above) to correct this item.</p>
      ) : mode === 'view' ? (
        <div class="buttons" role="group" aria-label="Corrections">
          {item.status === 'active' ? (
            <>
              <button type="button" class="primary" onClick={() => setMode('edit')}>
                Edit value
              </button>
              <button type="button" onClick={() => setMode('retract')}>
                Retract…
              </button>
            </>
          ) : (
            <Restore version={item} writer={writer} onDone={changed} />
          )}
          <button type="button" class="danger" onClick={() => setMode('delete')}>
            Delete…
          </button>
        </div>
      ) : mode === 'edit' ? (
        <EditForm item={item} writer={writer} onDone={changed} onCancel={() => setMode('view')} />
      ) : mode === 'retract' ? (
        <RetractForm item={item} writer={writer} onDone={() => changed()} onCancel={() => setMode('view')} />
      ) : (
        <DeleteForm
          item={item}
          writer={writer}
          versions={versions}
          onDone={() => {
            onChanged();
            onClose();
          }}
          onCancel={() => setMode('view')}
        />
      )}
      <h3>Version history</h3>
      <Status state={history}>
        {() => <History versions={versions} current={item.id} scope={scope} writer={writer} onRestored={changed} />}
      </Status>
      <details>
        <summary>The value (JSON)</summary>
        <Json value={item.value} label="Item value" />
      </details>
    </>
  );
}

/** The drawer of one item, read again after each correction. */
export function ItemPanel({
  id,
  scope,
  disputed,
  onChanged,
  onClose,
}: {
  id: string;
  scope: ScopeParams;
  disputed: Set<string>;
  onChanged: () => void;
  onClose: () => void;
}): JSX.Element {
  const [tick, setTick] = useState(0);
  const item = useLoad(() => api<ItemRecord>('GET', `/v1/items/${encodeURIComponent(id)}`), [id, tick]);
  return (
    <Drawer title={item.data?.text ?? 'Item'} labelId="item-title" onClose={onClose}>
      <Status state={item}>
        {(current) => (
          <ItemBody
            item={current}
            scope={scope}
            disputed={disputed}
            onChanged={() => {
              setTick((value) => value + 1);
              onChanged();
            }}
            onClose={onClose}
          />
        )}
      </Status>
    </Drawer>
  );
}
