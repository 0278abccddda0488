// Review queue: a user's pending candidates with their evidence and salience; approve, edit then
// approve, or reject with a reason. An approval links to the item it wrote in Memory.

import type { ComponentChildren, JSX } from 'preact';
import { useState } from 'preact/hooks';

import { api, query, type Page } from '../api.js';
import type { Candidate, DecisionResult } from '../types.js';
import { Badge, ErrorBox, hasScope, href, Json, ScopeForm, scopeOf, Status, StatusBadge, Time, useLoad, type Route } from '../ui.js';

/** The fields an edit of each kind of write may carry (the approve request's schema). */
const EDIT_FIELDS: Record<string, readonly string[]> = {
  item: ['write', 'type', 'key', 'value', 'scope_level', 'tags', 'entities', 'valid_from'],
  retract: ['write', 'key'],
  insight: ['write', 'insight_type', 'statement', 'trigger', 'tests_suggested', 'expires_at'],
  resolve: ['write', 'keep'],
};

/** The candidate's target as an edit: only the fields an edit may carry. */
function editOf(candidate: Candidate): Record<string, unknown> {
  const allowed = EDIT_FIELDS[candidate.target.write] ?? Object.keys(candidate.target);
  return Object.fromEntries(Object.entries(candidate.target).filter(([name]) => allowed.includes(name)));
}

function Salience({ salience }: { salience: Record<string, number> }): JSX.Element {
  return (
    <ul class="salience" aria-label="Salience">
      {Object.entries(salience).map(([name, value]) => (
        <li key={name}>
          <span>{name.replace('_', ' ')}</span>
          <meter min={0} max={1} value={value} aria-label={name} /> {value.toFixed(2)}
        </li>
      ))}
    </ul>
  );
}

/** A form that decides a candidate: its fields, a submit button and Cancel. */
function DecisionForm({ submit, tone, onSubmit, onCancel, children }: { submit: string; tone: 'primary' | 'danger'; onSubmit: () => void; onCancel: () => void; children: ComponentChildren }): JSX.Element {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <div class="buttons">
        <button type="submit" class={tone}>
          {submit}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function CandidateCard({ candidate, onDecided, reviewer }: { candidate: Candidate; onDecided: () => void; reviewer: string }): JSX.Element {
  const [mode, setMode] = useState<'view' | 'edit' | 'reject'>('view');
  const [edit, setEdit] = useState(() => JSON.stringify(editOf(candidate), null, 2));
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [result, setResult] = useState<Candidate | undefined>(undefined);
  const pending = candidate.status === 'pending' && result === undefined;
  const decide = async (action: 'approve' | 'reject', body: Record<string, unknown>) => {
    setError(undefined);
    try {
      const decided = await api<DecisionResult | Candidate>('POST', `/v1/review/${encodeURIComponent(candidate.id)}/${action}`, { by: reviewer, ...body });
      setResult('candidate' in decided ? decided.candidate : decided);
      setMode('view');
      onDecided();
    } catch (failure) {
      setError(failure);
    }
  };
  const approveEdited = () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(edit);
    } catch (failure) {
      setError(new Error(`the edit is not JSON: ${failure instanceof Error ? failure.message : String(failure)}`));
      return;
    }
    void decide('approve', { edit: parsed });
  };
  const shown = result ?? candidate;
  const written = shown.decision?.written.item_ids ?? [];
  return (
    <article class="card" aria-labelledby={`${candidate.id}-title`}>
      <header>
        <h2 id={`${candidate.id}-title`}>
          {candidate.kind} · {String(candidate.target.key ?? candidate.target.write)}
        </h2>
        <StatusBadge status={shown.status} /> <Badge>{candidate.source}</Badge>{' '}
        {candidate.sensitivity === 'normal' ? null : <Badge>{`${candidate.sensitivity}: stays with its user`}</Badge>} <span class="muted">confidence {candidate.confidence.toFixed(2)}, proposed <Time at={candidate.created_at} />, run {candidate.run_id}</span>
      </header>
      {typeof candidate.payload['candidate_meaning'] === 'string' ? <p class="meaning">{candidate.payload['candidate_meaning']}</p> : null}
      {typeof candidate.payload['summary'] === 'string' ? <p>{candidate.payload['summary']}</p> : null}
      <div class="two">
        <div>
          <h3>Evidence</h3>
          <ul class="sources">
            {candidate.source_event_ids.map((source) => (
              <li key={source}>
                <a href={href('event', { id: source })}>{source}</a>
              </li>
            ))}
          </ul>
          <h3>Salience</h3>
          <Salience salience={candidate.salience} />
        </div>
        <div>
          <h3>Writes</h3>
          <Json value={candidate.target} label="What approving writes" />
        </div>
      </div>
      <ErrorBox error={error} />
      {pending && mode === 'view' ? (
        <div class="buttons">
          <button type="button" class="primary" onClick={() => void decide('approve', {})}>
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
        <DecisionForm submit="Approve the edit" tone="primary" onSubmit={approveEdited} onCancel={() => setMode('view')}>
          <label class="field wide">
            <span>What to write instead (JSON)</span>
            <textarea rows={10} value={edit} onInput={(event) => setEdit((event.currentTarget as HTMLTextAreaElement).value)} />
          </label>
        </DecisionForm>
      ) : null}
      {pending && mode === 'reject' ? (
        <DecisionForm submit="Reject" tone="danger" onSubmit={() => void decide('reject', { reason })} onCancel={() => setMode('view')}>
          <label class="field wide">
            <span>Reason</span>
            <input name="reason" value={reason} required onInput={(event) => setReason((event.currentTarget as HTMLInputElement).value)} />
          </label>
        </DecisionForm>
      ) : null}
      {shown.decision === null ? null : (
        <p class="decision" role="status">
          {shown.status} by {shown.decision.by}
          {shown.decision.reason === null ? '' : `: ${shown.decision.reason}`}.{' '}
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

export function ReviewView({ route }: { route: Route }): JSX.Element {
  const scope = scopeOf(route);
  const ready = hasScope(scope, ['user_id']);
  const status = route.params['status'] ?? 'pending';
  const [reviewer, setReviewer] = useState(() => localStorage.getItem('engram.inspector.reviewer') ?? 'inspector');
  const list = useLoad(
    () => (ready ? api<Page<Candidate>>('GET', `/v1/review${query({ user_id: scope.user_id, agent_id: scope.agent_id, status: status === 'all' ? undefined : [status], limit: 200 })}`) : Promise.resolve({ items: [], next_cursor: null })),
    [scope.user_id, scope.agent_id, status],
  );
  return (
    <section aria-labelledby="review-title">
      <h1 id="review-title">Review queue</h1>
      <ScopeForm view="review" scope={scope} need={['user_id']} also={['agent_id']} extra={{ status }} />
      <div class="filters" role="group" aria-label="Filters">
        {['pending', 'approved', 'edited', 'rejected', 'all'].map((name) => (
          <a key={name} class={name === status ? 'chip current' : 'chip'} aria-current={name === status ? 'true' : undefined} href={href('review', { user_id: scope.user_id, agent_id: scope.agent_id, status: name })}>
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
            ready ? <p class="muted">Nothing {status === 'all' ? '' : status} to review.</p> : null
          ) : (
            <div class="cards">
              {page.items.map((candidate) => (
                <CandidateCard key={candidate.id} candidate={candidate} reviewer={reviewer} onDecided={() => undefined} />
              ))}
            </div>
          )
        }
      </Status>
    </section>
  );
}
