// Memory quality on the corpus (bench/data/memory-corpus/): every conversation committed turn by
// turn through commitTurn (default configuration: rule extraction, no LLM; the store's clock at each
// turn's time), what long-term memory holds as current checked after every turn, every current item
// judged at the end, and each question composed as a 1,000-token responder packet in a new session
// the day after the last one, once the turns have their vectors (local static model). The same run
// with an LLM beside the rules asks a scripted model on loopback (scripted-model.ts), its extraction
// of each turn run as the background job it is, before the turn is checked.

import type { Engram, ItemStatus, MemoryPacket } from '../src/index.js';
import { renderPacket } from '../src/index.js';
import { FACT_KINDS, loadCorpus, type CorpusConversation, type FactKind } from './memory-corpus.js';
import {
  answerOf,
  finalState,
  heldItem,
  holds,
  holdsStale,
  judge,
  type HeldItem,
  type Verdict,
} from './memory-score.js';
import { listAllItems } from './list-items.js';
import { startScriptedModel } from './scripted-model.js';
import { withTempStore } from './temp-store.js';

export interface MemorySizes {
  /** Conversations of each language, in file order (null: all). */
  perLanguage: number | null;
  /** The corpus folder (default bench/data/memory-corpus/; the held-out set is bench/data/memory-holdout/). */
  dir?: string;
  /** Only these files of the folder, by name without `.json` ("en-3"); default every file. */
  files?: string[];
}

/** Who extracts: the rules alone (the default configuration), or the rules and the scripted model. */
export type MemoryExtraction = 'rules' | 'rules+scripted-llm';

/** The budget the corpus's questions are asked at (the write-path issue's 1,000-token responder packet). */
export const MEMORY_BUDGET = 1_000;
const AGENT = 'assistant';
const DAY_MS = 86_400_000;
const VERDICTS: readonly Verdict[] = ['right', 'stale', 'advice', 'assistant', 'junk'];

export interface KindScore {
  kind: FactKind;
  /** Expected facts, and those held as current right after their turn. */
  expected: number;
  held: number;
  /** Values made stale, and those still held as current right after the turn that made them stale. */
  stale: number;
  stale_held: number;
}

export interface LanguageScore {
  language: 'en' | 'zh';
  conversations: number;
  turns: number;
  kinds: KindScore[];
  /** Extraction recall over every expected fact (held right after its turn). */
  recall: number | null;
  /** Current, non-episodic items at the end of each conversation, by verdict; precision is right / all. */
  items: Record<Verdict, number>;
  precision: number | null;
  questions: number;
  /** Questions whose packet shows the right current memory (anywhere, quoted history included). */
  right: number;
  right_share: number | null;
  /** Questions with something to show whose packet holds it among its current facts. */
  with_show: number;
  as_fact: number;
  as_fact_share: number | null;
  /** Facts shown as current that hold a stale value, or only the assistant's words, over all packets. */
  stale_shown: number;
  assistant_shown: number;
  /** Each expected fact not held, stale value still held, and question without its right current fact, one line each. */
  misses: string[];
}

export interface MemoryResult {
  extraction: MemoryExtraction;
  corpus: { conversations: number; turns: number; questions: number };
  budget: number;
  languages: LanguageScore[];
  seconds: number;
}

interface Tally {
  conversations: number;
  turns: number;
  kinds: Map<FactKind, KindScore>;
  items: Record<Verdict, number>;
  questions: number;
  right: number;
  with_show: number;
  as_fact: number;
  stale_shown: number;
  assistant_shown: number;
  misses: string[];
}

function newTally(): Tally {
  return {
    conversations: 0,
    turns: 0,
    kinds: new Map(FACT_KINDS.map((kind) => [kind, { kind, expected: 0, held: 0, stale: 0, stale_held: 0 }])),
    items: { right: 0, stale: 0, advice: 0, assistant: 0, junk: 0 },
    questions: 0,
    right: 0,
    with_show: 0,
    as_fact: 0,
    stale_shown: 0,
    assistant_shown: 0,
    misses: [],
  };
}

/** A packet's current facts, one short line each, for a miss's report. */
function factLines(packet: MemoryPacket): string {
  return packet.long_term.facts
    .filter((fact) => fact.status === 'active')
    .map((fact) => `${fact.fact_key}=${JSON.stringify(fact.value).slice(0, 80)}`)
    .join('; ');
}

async function runConversation(
  engram: Engram,
  setNow: (iso: string) => void,
  conversation: CorpusConversation,
  tally: Tally,
): Promise<void> {
  const user_id = `mq-${conversation.id}`;
  const run_id = `run-${conversation.id}`;
  const userEvents = new Set<string>();
  const userSaid = (id: string) => userEvents.has(id);
  const held = async (status?: ItemStatus[]): Promise<HeldItem[]> =>
    (await listAllItems(engram, { user_id, agent_id: AGENT }, status)).map((item) => heldItem(item, userSaid));
  tally.conversations += 1;
  for (const [sessionIndex, session] of conversation.sessions.entries()) {
    for (const [turnIndex, turn] of session.turns.entries()) {
      const ts = new Date(Date.parse(session.start) + turnIndex * 60_000).toISOString();
      setNow(new Date(Date.parse(ts) + 30_000).toISOString());
      const result = await engram.commitTurn({
        scope: { user_id, agent_id: AGENT, session_id: `s${sessionIndex + 1}`, run_id },
        turn_id: `t${sessionIndex + 1}-${turnIndex + 1}`,
        ts,
        messages: [
          { role: 'user', content: turn.user },
          { role: 'assistant', content: turn.assistant },
        ],
      });
      for (const event of result.events) if (event.role === 'human') userEvents.add(event.event_id);
      // The model's extraction of the turn runs as a background job: the worker has run it before the next turn.
      while ((await engram.maintenance.runJobs(16)).done > 0);
      tally.turns += 1;
      if (turn.expect.length === 0 && turn.stale.length === 0) continue;
      const items = await held();
      const retracted = turn.expect.some((fact) => fact.status === 'cancelled') ? await held(['retracted']) : [];
      const place = `${conversation.id} s${sessionIndex + 1}t${turnIndex + 1}`;
      for (const fact of turn.expect) {
        const score = tally.kinds.get(fact.kind)!;
        score.expected += 1;
        if (holds(items, fact, retracted)) score.held += 1;
        else
          tally.misses.push(
            `${place} not held: ${fact.kind} "${fact.value}"${fact.status === undefined ? '' : ` (${fact.status})`} | user: ${turn.user}`,
          );
      }
      for (const fact of turn.stale) {
        const score = tally.kinds.get(fact.kind)!;
        score.stale += 1;
        if (holdsStale(items, fact)) {
          score.stale_held += 1;
          tally.misses.push(`${place} stale still held: ${fact.kind} "${fact.value}" | user: ${turn.user}`);
        }
      }
    }
  }
  const turns = conversation.sessions.flatMap((session) => session.turns);
  const expected = { ...finalState(turns), advice: turns.flatMap((turn) => turn.advice) };
  const finalItems = await held();
  for (const item of finalItems) {
    if (item.episodic) continue;
    const verdict = judge(item, expected);
    tally.items[verdict] += 1;
    if (verdict !== 'right') tally.misses.push(`${conversation.id} ${verdict} item: ${item.text.slice(0, 160)}`);
  }
  const asked = Date.parse(conversation.sessions.at(-1)!.start) + DAY_MS;
  // The background worker has embedded the turns by the time the questions come.
  setNow(new Date(asked - 60_000).toISOString());
  await engram.maintenance.runEmbeddings();
  setNow(new Date(asked).toISOString());
  const answering = {
    asked: new Date(asked).toISOString().slice(0, 10),
    current: expected.current.map((fact) => fact.value),
  };
  for (const question of conversation.questions) {
    const packet = await engram.compose({
      scope: { user_id, agent_id: AGENT, session_id: 'questions', run_id },
      purpose: 'responder',
      cues: { query: question.ask },
      budget: { max_tokens: MEMORY_BUDGET },
    });
    const answer = answerOf(packet, renderPacket(packet), question, userSaid, answering);
    tally.questions += 1;
    if (answer.right) tally.right += 1;
    if (answer.as_fact !== null) tally.with_show += 1;
    if (answer.as_fact === true) tally.as_fact += 1;
    tally.stale_shown += answer.stale_shown;
    tally.assistant_shown += answer.assistant_shown;
    if (!answer.right)
      tally.misses.push(
        `${conversation.id} question "${question.ask}" not in the packet at all: ${question.show.join(', ')}`,
      );
    if (answer.as_fact === false || answer.stale_shown > 0 || answer.assistant_shown > 0) {
      const stored = question.show.every((value) => finalItems.some((item) => item.text.includes(value.toLowerCase())));
      const wrong = [
        answer.as_fact === false
          ? `not a current fact: ${question.show.join(', ')} (${stored ? 'held, not shown' : 'not held'})`
          : '',
        answer.stale_shown > 0
          ? `stale shown: ${question.not_current.map((stale) => (stale.about === undefined ? stale.value : `${stale.value} (${stale.about})`)).join(', ')}`
          : '',
      ]
        .filter((part) => part !== '')
        .join('; ');
      tally.misses.push(`${conversation.id} question "${question.ask}" ${wrong} | facts: ${factLines(packet)}`);
    }
  }
}

function share(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 1000) / 1000;
}

function scoreOf(language: 'en' | 'zh', tally: Tally): LanguageScore {
  const kinds = [...tally.kinds.values()].filter((score) => score.expected + score.stale > 0);
  const expected = kinds.reduce((sum, score) => sum + score.expected, 0);
  const heldCount = kinds.reduce((sum, score) => sum + score.held, 0);
  const items = VERDICTS.reduce((sum, verdict) => sum + tally.items[verdict], 0);
  return {
    language,
    conversations: tally.conversations,
    turns: tally.turns,
    kinds,
    recall: share(heldCount, expected),
    items: tally.items,
    precision: share(tally.items.right, items),
    questions: tally.questions,
    right: tally.right,
    right_share: share(tally.right, tally.questions),
    with_show: tally.with_show,
    as_fact: tally.as_fact,
    as_fact_share: share(tally.as_fact, tally.with_show),
    stale_shown: tally.stale_shown,
    assistant_shown: tally.assistant_shown,
    misses: tally.misses,
  };
}

/**
 * Runs the corpus through a fresh embedded store with Engram's default configuration and scores
 * what memory holds and what packets show.
 */
export async function benchMemory(
  sizes: MemorySizes,
  log: (message: string) => void,
  extraction: MemoryExtraction = 'rules',
): Promise<MemoryResult> {
  const all = loadCorpus(sizes.dir, sizes.files);
  const pick = (language: 'en' | 'zh') => {
    const of = all.filter((conversation) => conversation.language === language);
    return sizes.perLanguage === null ? of : of.slice(0, sizes.perLanguage);
  };
  const chosen = [...pick('en'), ...pick('zh')];
  const tallies = new Map<'en' | 'zh', Tally>([
    ['en', newTally()],
    ['zh', newTally()],
  ]);
  let now = Date.parse('2026-01-01T00:00:00.000Z');
  const clock = { now: () => new Date(now) };
  const started = performance.now();
  const model = extraction === 'rules' ? null : await startScriptedModel(chosen);
  try {
    await withTempStore(
      'normal',
      async (engram) => {
        for (const conversation of chosen)
          await runConversation(
            engram,
            (iso) => (now = Date.parse(iso)),
            conversation,
            tallies.get(conversation.language)!,
          );
      },
      {
        clock,
        ...(model === null
          ? {}
          : { extraction: { llm: { provider: 'openai-compatible', baseUrl: model.baseUrl, model: 'scripted' } } }),
      },
    );
  } finally {
    await model?.close();
  }
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  log(`memory (${extraction}): ${chosen.length} conversations in ${seconds} s`);
  const languages = (['en', 'zh'] as const)
    .filter((language) => tallies.get(language)!.conversations > 0)
    .map((language) => scoreOf(language, tallies.get(language)!));
  return {
    extraction,
    corpus: {
      conversations: chosen.length,
      turns: languages.reduce((sum, score) => sum + score.turns, 0),
      questions: languages.reduce((sum, score) => sum + score.questions, 0),
    },
    budget: MEMORY_BUDGET,
    languages,
    seconds,
  };
}

const fixed = (value: number | null) => (value === null ? '—' : value.toFixed(3));

/** The report: extraction by kind and language, then the items judged and the packets' answers. */
export function memoryReport(result: MemoryResult): string {
  const lines: string[] = [];
  lines.push(
    '| kind | ' +
      result.languages
        .map((score) => `${score.language}: held / expected | ${score.language}: stale still held`)
        .join(' | ') +
      ' |',
  );
  lines.push('| --- | ' + result.languages.map(() => '--- | ---').join(' | ') + ' |');
  for (const kind of FACT_KINDS) {
    const cells = result.languages.map((score) => {
      const entry = score.kinds.find((candidate) => candidate.kind === kind);
      if (entry === undefined) return '— | —';
      return `${entry.held} / ${entry.expected} (${fixed(share(entry.held, entry.expected))}) | ${entry.stale === 0 ? '—' : `${entry.stale_held} of ${entry.stale}`}`;
    });
    if (cells.every((cell) => cell === '— | —')) continue;
    lines.push(`| ${kind} | ${cells.join(' | ')} |`);
  }
  lines.push('');
  lines.push(
    '| language | conversations | turns | extraction recall | precision (right / current items) | stale | advice | assistant-only | junk | questions | right memory in the packet | … as a current fact | stale facts shown as current | assistant-only facts shown |',
  );
  lines.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const score of result.languages) {
    const all = VERDICTS.reduce((sum, verdict) => sum + score.items[verdict], 0);
    lines.push(
      `| ${score.language} | ${score.conversations} | ${score.turns} | **${fixed(score.recall)}** | **${fixed(score.precision)}** (${score.items.right} / ${all}) | ${score.items.stale} | ${score.items.advice} | ${score.items.assistant} | ${score.items.junk} | ${score.questions} | **${fixed(score.right_share)}** (${score.right}) | **${fixed(score.as_fact_share)}** (${score.as_fact} of ${score.with_show}) | ${score.stale_shown} | ${score.assistant_shown} |`,
    );
  }
  return lines.join('\n');
}
