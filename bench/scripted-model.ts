// A language model with scripted answers for the memory corpus, served on loopback as an
// OpenAI-compatible endpoint: asked to extract items from a turn, it answers with exactly the facts
// the corpus expects after that turn (and retracts the ones it makes stale), in the extract-items
// prompt's output format. It measures what the LLM path of the write path does with right answers —
// how facts are merged, superseded, ended and shown — not how good any real model is.

import {
  chatReply,
  startOpenAiCompatibleServer,
  type OpenAiCompatibleServer,
} from '../test/helpers/openai-compatible-server.js';
import type { CorpusConversation, CorpusFact, FactKind } from './memory-corpus.js';

interface ScriptedTurn {
  expect: readonly CorpusFact[];
  stale: readonly CorpusFact[];
}

interface ModelItem {
  action: 'upsert' | 'retract';
  type: string;
  key: string;
  value: Array<{ k: string; v: string }>;
  confidence: number;
  gate: 'must' | 'may';
  source_event_ids: string[];
  salience: null;
}

/** A key part from a value: lower case, words joined by underscores (letters of any script). */
function slug(value: string): string {
  return (
    value
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '_')
      .replace(/^_+|_+$/g, '') || 'item'
  );
}

/** What a profile fact of a kind says, as the rules would phrase its value. */
const PROFILE_VALUE: Partial<Record<FactKind, (value: string) => string>> = {
  like: (value) => `likes ${value}`,
  dislike: (value) => `dislikes ${value}`,
};

/** A key already in memory (the prompt lists them) that names this thing, as a model reuses one. */
function knownKey(known: readonly string[], prefixes: readonly string[], name: string): string | undefined {
  const words = name.split('_');
  // Han text has no spaces: a word of it is found inside a key's part.
  const holds = (part: string, word: string) => part === word || (/\p{Script=Han}/u.test(word) && part.includes(word));
  return known.find(
    (key) =>
      prefixes.some((prefix) => key.startsWith(prefix)) &&
      words.every((word) => key.split(/[:_]/u).some((part) => holds(part, word))),
  );
}

/**
 * The item a fact is kept as: tasks and plans as their own items (under a key already in memory
 * when one names them), preferences as such, the rest as profile facts named as the prompt asks.
 * A retracted profile fact is named by its words (`*:<words>`), so it ends whichever extractor wrote it.
 */
function itemOf(
  fact: CorpusFact,
  action: 'upsert' | 'retract',
  source: string,
  known: readonly string[],
  factName?: string,
): ModelItem {
  const base = { action, confidence: 0.9, gate: 'may' as const, source_event_ids: [source], salience: null };
  const name = slug(fact.value);
  switch (fact.kind) {
    case 'task': {
      const key = knownKey(known, ['task:'], name) ?? `task:general:${name}`;
      return {
        ...base,
        gate: 'must',
        type: 'tasks',
        key,
        value: [
          { k: 'task_id', v: key.split(':')[2]! },
          { k: 'title', v: fact.value },
          { k: 'status', v: fact.status === 'done' ? 'done' : 'todo' },
        ],
      };
    }
    case 'plan': {
      const key = knownKey(known, ['goal:'], name) ?? `goal:plans:${name}`;
      return {
        ...base,
        type: 'goals',
        key,
        value: [
          { k: 'name', v: key.split(':')[2]! },
          { k: 'description', v: fact.value },
          { k: 'status', v: fact.status ?? 'open' },
        ],
      };
    }
    case 'preference':
      return {
        ...base,
        type: 'preferences',
        key: `pref:other:${name}`,
        value: [
          { k: 'scope', v: 'other' },
          { k: 'name', v: name },
          { k: 'value', v: fact.value },
        ],
      };
    default: {
      if (action === 'retract')
        return { ...base, type: 'profile', key: 'profile:user', value: [{ k: `*:${name}`, v: fact.value }] };
      const k =
        factName ??
        (fact.kind === 'location'
          ? 'location'
          : fact.kind === 'like' || fact.kind === 'dislike'
            ? `taste:${name}`
            : `${fact.kind}:${name}`);
      return {
        ...base,
        type: 'profile',
        key: 'profile:user',
        value: [{ k, v: (PROFILE_VALUE[fact.kind] ?? ((value: string) => value))(fact.value) }],
      };
    }
  }
}

/** The answer for one turn: an upsert per expected fact, a retraction per fact it makes stale and does not state again. */
function answerFor(turn: ScriptedTurn, userEventId: string, known: readonly string[]): ModelItem[] {
  const named = (fact: CorpusFact) => `${fact.kind}\u0000${fact.value.toLowerCase()}`;
  const said = new Set(turn.expect.map(named));
  // The first place a turn names is where the user lives; more are parts of it (a city and its district).
  const firstPlace = turn.expect.find((fact) => fact.kind === 'location');
  const items = turn.expect.map((fact) =>
    itemOf(
      fact,
      'upsert',
      userEventId,
      known,
      fact.kind === 'location' && fact !== firstPlace ? `location:${slug(fact.value)}` : undefined,
    ),
  );
  for (const fact of turn.stale) {
    if (said.has(named(fact))) continue;
    // A task or plan made stale by its own change (done, moved, cancelled) is updated by the expected fact.
    if (
      (fact.kind === 'task' || fact.kind === 'plan') &&
      turn.expect.some((next) => next.kind === fact.kind && next.value.toLowerCase() === fact.value.toLowerCase())
    )
      continue;
    items.push(itemOf(fact, 'retract', userEventId, known));
  }
  return items;
}

/** The keys the prompt lists as already in memory. */
function promptKeys(prompt: string): string[] {
  return prompt.split('\n').flatMap((line) => (line.startsWith('- ') ? [line.slice(2).trim()] : []));
}

interface PromptEvent {
  event_id: string;
  role: string;
  text: string;
}

/** The events of an extract-items prompt: its numbered JSON lines. */
function promptEvents(prompt: string): PromptEvent[] {
  return prompt.split('\n').flatMap((line) => {
    const found = /^\[\d+\] (\{.*\})$/.exec(line);
    return found === null ? [] : [JSON.parse(found[1]!) as PromptEvent];
  });
}

/**
 * Starts the scripted model for some conversations of the corpus; each turn is found by its user's
 * words. Close it after use.
 *
 * @example
 * const model = await startScriptedModel(conversations);
 * // extraction: { llm: { provider: 'openai-compatible', baseUrl: model.baseUrl, model: 'scripted' } }
 */
export async function startScriptedModel(
  conversations: readonly CorpusConversation[],
): Promise<OpenAiCompatibleServer> {
  const turns = new Map<string, ScriptedTurn>();
  for (const conversation of conversations) {
    for (const session of conversation.sessions)
      for (const turn of session.turns) turns.set(turn.user, { expect: turn.expect, stale: turn.stale });
  }
  return startOpenAiCompatibleServer({
    chat: (body) => {
      const prompt = body.messages
        .filter((message) => message.role === 'user')
        .map((message) => message.content)
        .join('\n');
      const events = promptEvents(prompt);
      const user = events.find((event) => event.role === 'user' && turns.has(event.text));
      const items = user === undefined ? [] : answerFor(turns.get(user.text)!, user.event_id, promptKeys(prompt));
      return chatReply(JSON.stringify({ items }));
    },
  });
}
