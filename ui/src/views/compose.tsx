// Compose playground: choose scope, purpose, task type, cues and budget; see the packet as the agent
// would get it (packet-report.tsx): the budget, what was selected and omitted as text with rules
// and reasons, why any item or event is or is not in it, citations and the rendered prompt text.

import type { JSX } from 'preact';
import { useState } from 'preact/hooks';

import { api } from '../api.js';
import type { MemoryPacket } from '../../../src/client/index.js';
import { ErrorBox, Field, go, type Route, scopeOf } from '../ui.js';
import { PacketReport } from './packet-report.js';

/** Words of a comma-separated field. */
const list = (text: string): string[] =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');

export function ComposeView({ route }: { route: Route }): JSX.Element {
  const scope = scopeOf(route);
  const p = route.params;
  const [form, setForm] = useState({
    ...scope,
    purpose: p['purpose'] ?? 'responder',
    task_type: p['task_type'] ?? '',
    query: p['query'] ?? '',
    tags: p['tags'] ?? '',
    entities: p['entities'] ?? '',
    keywords: p['keywords'] ?? '',
    start: '',
    end: '',
    max_tokens: p['max_tokens'] ?? '',
    policy_id: p['policy_id'] ?? '',
    render: p['render'] ?? 'markdown',
  });
  const [answer, setAnswer] = useState<{ packet: MemoryPacket; text?: string } | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const set = (name: keyof typeof form) => (value: string) => setForm({ ...form, [name]: value });
  const compose = async () => {
    setBusy(true);
    setError(undefined);
    const cues: Record<string, unknown> = {};
    if (form.query.trim() !== '') cues['query'] = form.query;
    for (const name of ['tags', 'entities', 'keywords'] as const)
      if (list(form[name]).length > 0) cues[name] = list(form[name]);
    if (form.start !== '' || form.end !== '')
      cues['time_range'] = {
        ...(form.start === '' ? {} : { start: new Date(form.start).toISOString() }),
        ...(form.end === '' ? {} : { end: new Date(form.end).toISOString() }),
      };
    const body: Record<string, unknown> = {
      scope: { user_id: form.user_id, agent_id: form.agent_id, session_id: form.session_id, run_id: form.run_id },
      purpose: form.purpose,
      cues,
    };
    if (form.task_type !== '') body['task_type'] = form.task_type;
    if (form.policy_id !== '') body['policy_id'] = form.policy_id;
    if (form.max_tokens !== '') body['budget'] = { max_tokens: Number(form.max_tokens) };
    try {
      setAnswer(await api<{ packet: MemoryPacket; text?: string }>('POST', `/v1/compose?render=${form.render}`, body));
    } catch (failure) {
      setError(failure);
      setAnswer(undefined);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="compose-title">
      <h1 id="compose-title">Compose playground</h1>
      <form
        class="compose-form"
        aria-label="Compose request"
        onSubmit={(event) => {
          event.preventDefault();
          void compose();
        }}
      >
        <fieldset>
          <legend>Scope</legend>
          <Field name="user_id" label="User" value={form.user_id} onInput={set('user_id')} required />
          <Field name="agent_id" label="Agent" value={form.agent_id} onInput={set('agent_id')} required />
          <Field name="session_id" label="Session" value={form.session_id} onInput={set('session_id')} required />
          <Field name="run_id" label="Run" value={form.run_id} onInput={set('run_id')} required />
        </fieldset>
        <fieldset>
          <legend>Purpose and budget</legend>
          <label class="field">
            <span>Purpose</span>
            <select
              name="purpose"
              value={form.purpose}
              onChange={(event) => set('purpose')((event.currentTarget as HTMLSelectElement).value)}
            >
              <option value="planner">planner</option>
              <option value="tool">tool</option>
              <option value="responder">responder</option>
            </select>
          </label>
          <Field
            name="task_type"
            label="Task type"
            value={form.task_type}
            onInput={set('task_type')}
            placeholder="generic"
          />
          <Field
            name="max_tokens"
            label="Max tokens"
            type="number"
            value={form.max_tokens}
            onInput={set('max_tokens')}
            placeholder="the policy's"
          />
          <Field
            name="policy_id"
            label="Policy"
            value={form.policy_id}
            onInput={set('policy_id')}
            placeholder="default for the purpose"
          />
          <label class="field">
            <span>Render</span>
            <select
              name="render"
              value={form.render}
              onChange={(event) => set('render')((event.currentTarget as HTMLSelectElement).value)}
            >
              <option value="markdown">Markdown</option>
              <option value="xml">XML</option>
            </select>
          </label>
        </fieldset>
        <fieldset>
          <legend>Cues</legend>
          <Field name="query" label="Query" value={form.query} onInput={set('query')} placeholder="free text" />
          <Field name="tags" label="Tags" value={form.tags} onInput={set('tags')} placeholder="comma-separated" />
          <Field
            name="entities"
            label="Entities"
            value={form.entities}
            onInput={set('entities')}
            placeholder="comma-separated"
          />
          <Field
            name="keywords"
            label="Keywords"
            value={form.keywords}
            onInput={set('keywords')}
            placeholder="comma-separated"
          />
          <Field name="start" label="From" type="datetime-local" value={form.start} onInput={set('start')} />
          <Field name="end" label="To" type="datetime-local" value={form.end} onInput={set('end')} />
        </fieldset>
        <div class="buttons">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Composing…' : 'Compose'}
          </button>
          <button type="button" onClick={() => go('builds', { user_id: form.user_id })}>
            Stored builds
          </button>
        </div>
      </form>
      <ErrorBox error={error} />
      {answer === undefined ? null : <PacketReport packet={answer.packet} text={answer.text} />}
    </section>
  );
}
