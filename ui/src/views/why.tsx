// "Why is this (not) in the packet?": pick any item of the user or event of the session (or paste
// an id), and the stored build answers where it was placed and by which rule, or which filter or
// omission left it out, with each retrieval signal's rank as of the build's time.

import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';

import { api, query, type Page } from '../api.js';
import type { BuildExplanation, EventRecord, ItemRecord, MemoryPacket } from '../../../src/client/index.js';
import { Badge, contentText, ErrorBox, href, TableHead, useAction, useLoad } from '../ui.js';

/** What can be asked about: the user's current items and the session's latest events, as text. */
function useChoices(scope: { user_id: string; agent_id: string; session_id: string }) {
  return useLoad(async () => {
    const [items, events] = await Promise.all([
      api<Page<ItemRecord>>(
        'GET',
        `/v1/items${query({ user_id: scope['user_id'], agent_id: scope['agent_id'], limit: 200 })}`,
      ),
      api<Page<EventRecord>>(
        'GET',
        `/v1/events${query({ user_id: scope['user_id'], agent_id: scope['agent_id'], session_id: scope['session_id'], order: 'desc', limit: 100 })}`,
      ),
    ]);
    const short = (text: string) => (text.length > 90 ? `${text.slice(0, 89)}…` : text);
    return [
      ...items.items.map((item) => ({ id: item.id, label: `item · ${short(item.text)}` })),
      ...events.items
        .filter((event) => event.kind === 'message' || event.kind === 'tool_result')
        .map((event) => ({
          id: event.id,
          label: `event · ${event.role}: ${event.sensitivity === 'secret' ? '(secret)' : short(contentText(event.content))}`,
        })),
    ];
  }, [scope['user_id'], scope['agent_id'], scope['session_id']]);
}

function Explanation({ answer }: { answer: BuildExplanation }): JSX.Element {
  return (
    <div class="explanation" role="status" aria-label="Explanation">
      <p>
        <Badge tone={answer.in_packet ? 'good' : 'warn'}>
          {answer.in_packet ? 'in the packet' : 'not in the packet'}
        </Badge>{' '}
        <Badge tone="info">{answer.verdict}</Badge>
        {answer.filter === null ? null : <Badge tone="bad">{`filter: ${answer.filter}`}</Badge>} {answer.detail}
      </p>
      {answer.section === null ? null : (
        <p>
          Placed in <strong>{answer.section}</strong> by <code>{answer.rule}</code>.
        </p>
      )}
      <table>
        <TableHead columns={['Signal', 'Used', ['Rank', 'num']]} />
        <tbody>
          {Object.entries(answer.signals).map(([name, signal]) => (
            <tr key={name}>
              <td>{name}</td>
              <td>{signal.used ? 'yes' : 'no'}</td>
              <td class="num">{signal.rank ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="muted">
        Fused rank {answer.fused_rank ?? '—'}, compose read {answer.read_depth} matches; as of {answer.as_of}.{' '}
        <a
          href={href(
            answer.kind === 'event' ? 'event' : 'memory',
            answer.kind === 'event' ? { id: answer.id } : { item: answer.id },
          )}
        >
          Open the {answer.kind}
        </a>
      </p>
      {answer.omissions.length === 0 ? null : (
        <ul class="explain" aria-label="Recorded omissions">
          {answer.omissions.map((entry, index) => (
            <li key={index}>
              <Badge tone="warn">{entry.reason}</Badge> {entry.item} {entry.detail ?? ''}
            </li>
          ))}
        </ul>
      )}
      {answer.notes.map((note) => (
        <p key={note} class="muted">
          {note}
        </p>
      ))}
    </div>
  );
}

/** The form and its answer; `asked` (from a "why?" button) fills the id and asks at once. */
export function WhyPanel({
  build,
  scope,
  asked,
}: {
  build: string;
  scope: MemoryPacket['meta']['scope'];
  asked: { id: string; n: number } | undefined;
}): JSX.Element {
  const choices = useChoices(scope);
  const [id, setId] = useState(asked?.id ?? '');
  const [answer, setAnswer] = useState<BuildExplanation | undefined>(undefined);
  const action = useAction();
  const explain = async (target: string) => {
    setAnswer(undefined);
    const result = await action.run(() =>
      api<BuildExplanation>('POST', `/v1/builds/${encodeURIComponent(build)}/explain`, { id: target.trim() }),
    );
    if (result !== undefined) setAnswer(result);
  };
  useEffect(() => {
    if (asked === undefined) return;
    setId(asked.id);
    void explain(asked.id);
  }, [asked?.n]);
  return (
    <>
      <form
        class="why-form"
        onSubmit={(event) => {
          event.preventDefault();
          void explain(id);
        }}
      >
        <label class="field wide">
          <span>An item of the user or an event of the session</span>
          <select
            name="why-choice"
            value={choices.data?.some((choice) => choice.id === id) === true ? id : ''}
            onChange={(event) => setId((event.currentTarget as HTMLSelectElement).value)}
          >
            <option value="">{choices.data === undefined ? 'loading…' : 'choose…'}</option>
            {(choices.data ?? []).map((choice) => (
              <option key={choice.id} value={choice.id}>
                {choice.label}
              </option>
            ))}
          </select>
        </label>
        <label class="field">
          <span>or its id</span>
          <input
            name="why-id"
            value={id}
            placeholder="mem_… or evt_…"
            required
            onInput={(event) => setId((event.currentTarget as HTMLInputElement).value)}
          />
        </label>
        <button type="submit" class="primary" disabled={action.busy}>
          Explain
        </button>
      </form>
      <ErrorBox error={action.error ?? choices.error} />
      {answer === undefined ? null : <Explanation answer={answer} />}
    </>
  );
}
