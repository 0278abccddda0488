// One proposal of the review queue: what it says and what approving it writes, as sentences; its
// evidence quoted; how often it was proposed; approve, edit then approve, or reject with a reason.

import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

import { Quotes } from '../quotes.js';
import type { CandidateRecord } from '../../../src/client/index.js';
import { ActionForm, Badge, ErrorBox, href, Json, StatusBadge, Time, typedJson, useAction } from '../ui.js';
import { approveGroup, rejectGroup, type Group, type GroupDecision } from './review-groups.js';

/** The fields an edit of each kind of write may carry (the approve request's schema). */
const EDIT_FIELDS: Record<string, readonly string[]> = {
  item: ['write', 'type', 'key', 'value', 'scope_level', 'tags', 'entities', 'valid_from'],
  retract: ['write', 'key'],
  insight: ['write', 'insight_type', 'statement', 'trigger', 'tests_suggested', 'expires_at'],
  resolve: ['write', 'keep'],
};

/** The candidate's target as an edit: only the fields an edit may carry. */
function editOf(candidate: CandidateRecord): Record<string, unknown> {
  const allowed = EDIT_FIELDS[candidate.target.write] ?? Object.keys(candidate.target);
  return Object.fromEntries(Object.entries(candidate.target).filter(([name]) => allowed.includes(name)));
}

/** What a candidate says, in one line. */
export function titleOf(candidate: CandidateRecord): string {
  for (const field of ['candidate_meaning', 'claim', 'summary', 'statement', 'detail']) {
    const text = candidate.payload[field];
    if (typeof text === 'string' && text !== '') return text;
  }
  return candidate.text ?? ('key' in candidate.target ? candidate.target.key : candidate.kind);
}

/** What approving a candidate writes, in words. */
function Writes({ candidate }: { candidate: CandidateRecord }): JSX.Element {
  const target = candidate.target;
  const key = 'key' in target ? target.key : '';
  if (target.write === 'item')
    return (
      <p class="writes">
        Writes “{candidate.text ?? key}” as {String(target.type)} <span class="key">{key}</span>
      </p>
    );
  if (target.write === 'retract')
    return (
      <p class="writes">
        Retracts <span class="key">{key}</span>
      </p>
    );
  if (target.write === 'insight') return <p class="writes">Adds an insight: “{String(target['statement'] ?? '')}”</p>;
  if (target.write === 'resolve')
    return (
      <p class="writes">Settles the dispute between {candidate.item_ids.length} items (keep one, retract the others)</p>
    );
  return <p class="writes muted">Writes nothing as proposed: edit it to give a key and a value.</p>;
}

/** A command from the keyboard for the focused card (`n` tells one press from the next). */
export interface CardCommand {
  action: 'approve' | 'edit' | 'reject';
  n: number;
}

export interface CardProps {
  group: Group;
  reviewer: string;
  canWrite: boolean;
  ticked: boolean;
  onTick: () => void;
  decided: GroupDecision | undefined;
  onDecided: (decision: GroupDecision) => void;
  command: CardCommand | undefined;
  focused: boolean;
  /** The card was clicked: the keys act on it from now on. */
  onFocus: () => void;
}

export function CandidateCard({
  group,
  reviewer,
  canWrite,
  ticked,
  onTick,
  decided,
  onDecided,
  command,
  focused,
  onFocus,
}: CardProps): JSX.Element {
  const candidate = group.members[0]!;
  const [mode, setMode] = useState<'view' | 'edit' | 'reject'>('view');
  const [edit, setEdit] = useState(() => JSON.stringify(editOf(candidate), null, 2));
  const [reason, setReason] = useState('');
  const action = useAction();
  const card = useRef<HTMLElement>(null);
  const shown = decided?.candidate ?? candidate;
  const pending = shown.status === 'pending' && canWrite;
  const run = async (work: () => Promise<GroupDecision>) => {
    const decision = await action.run(work);
    if (decision !== undefined) {
      setMode('view');
      onDecided(decision);
    }
  };
  const approveEdited = () => {
    const typed = typedJson(action, edit, 'the edit');
    if (typed === undefined) return;
    void run(() => approveGroup(group, reviewer, typed.value));
  };
  useEffect(() => {
    if (focused) card.current?.focus();
  }, [focused]);
  useEffect(() => {
    if (command === undefined || !pending) return;
    if (command.action === 'approve') void run(() => approveGroup(group, reviewer, undefined));
    else setMode(command.action);
  }, [command?.n]);
  const written = shown.decision?.written.item_ids ?? [];
  const titleId = `${candidate.id}-title`;
  return (
    <article
      class={`card${focused ? ' focused' : ''}`}
      aria-labelledby={titleId}
      tabIndex={-1}
      ref={card}
      onClick={onFocus}
    >
      <header class="card-head">
        {pending ? (
          <input type="checkbox" checked={ticked} onChange={onTick} aria-label={`Tick ${titleOf(candidate)}`} />
        ) : null}
        <h3 id={titleId}>{titleOf(candidate)}</h3>
      </header>
      <p class="card-meta">
        <StatusBadge status={shown.status} /> <Badge>{candidate.kind}</Badge> <Badge>{candidate.source}</Badge>{' '}
        {candidate.sensitivity === 'normal' ? null : (
          <Badge tone="warn">{`${candidate.sensitivity}: stays with its user`}</Badge>
        )}{' '}
        {group.members.length > 1 ? (
          <Badge
            tone="info"
            title={group.members.map((member) => member.id).join(', ')}
          >{`proposed ${group.members.length} times`}</Badge>
        ) : null}{' '}
        <span class="muted">
          confidence {candidate.confidence.toFixed(2)}, <Time at={candidate.created_at} />, run {candidate.run_id}
        </span>
      </p>
      <Writes candidate={candidate} />
      <Quotes ids={candidate.source_event_ids} shown={2} label="Evidence" />
      <details>
        <summary>Salience and the write (JSON)</summary>
        <p class="muted">
          {Object.entries(candidate.salience)
            .map(([name, value]) => `${name.replace('_', ' ')} ${value.toFixed(2)}`)
            .join(' · ')}
        </p>
        <Json value={candidate.target} label="What approving writes" />
      </details>
      <ErrorBox error={action.error} />
      {pending && mode === 'view' ? (
        <div class="buttons">
          <button
            type="button"
            class="primary"
            disabled={action.busy}
            onClick={() => void run(() => approveGroup(group, reviewer, undefined))}
          >
            Approve
          </button>
          <button type="button" onClick={() => setMode('edit')}>
            Edit and approve
          </button>
          <button type="button" class="danger" onClick={() => setMode('reject')}>
            Reject…
          </button>
        </div>
      ) : null}
      {pending && mode === 'edit' ? (
        <ActionForm submit="Approve the edit" tone="primary" onSubmit={approveEdited} onCancel={() => setMode('view')}>
          <label class="field wide">
            <span>What to write instead (JSON)</span>
            <textarea
              rows={8}
              value={edit}
              onInput={(event) => setEdit((event.currentTarget as HTMLTextAreaElement).value)}
              autoFocus
            />
          </label>
        </ActionForm>
      ) : null}
      {pending && mode === 'reject' ? (
        <ActionForm
          submit="Reject"
          tone="danger"
          onSubmit={() => void run(() => rejectGroup(group, reviewer, reason))}
          onCancel={() => setMode('view')}
        >
          <label class="field wide">
            <span>Reason</span>
            <input
              name="reason"
              value={reason}
              required
              autoFocus
              onInput={(event) => setReason((event.currentTarget as HTMLInputElement).value)}
            />
          </label>
        </ActionForm>
      ) : null}
      {shown.decision === null ? null : (
        <p class="decision" role="status">
          {shown.status} by {shown.decision.by}
          {shown.decision.reason === null ? '' : `: ${shown.decision.reason}`}.
          {decided !== undefined && decided.alsoRejected > 0
            ? ` The same proposal made ${decided.alsoRejected} more time${decided.alsoRejected === 1 ? '' : 's'} was rejected with it.`
            : ''}{' '}
          {written.map((id) => (
            <a key={id} href={href('memory', { user_id: candidate.user_id, agent_id: candidate.agent_id, item: id })}>
              See the item written ({id.slice(0, 12)}…)
            </a>
          ))}
        </p>
      )}
    </article>
  );
}
