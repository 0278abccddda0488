// The memory-quality corpus (bench/data/memory-corpus/*.json): scripted multi-session chats in
// English and Chinese, written for this repository, each turn marked with the facts memory should
// hold after it, the values it must no longer hold as current, and the assistant's advice that must
// never become the user's memory; each conversation ends with questions asked in a new session.
// This module reads the files and checks their shape, so a mistake in the data fails loudly.

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const FACT_KINDS = [
  'location',
  'work',
  'family',
  'pet',
  'health',
  'diet',
  'like',
  'dislike',
  'possession',
  'education',
  'date',
  'routine',
  'plan',
  'task',
  'preference',
] as const;
export type FactKind = (typeof FACT_KINDS)[number];
/** Kinds a conversation may be about beyond the facts: advice that must not be kept, and small talk. */
export const CONVERSATION_KINDS = [...FACT_KINDS, 'advice', 'smalltalk'] as const;
export type ConversationKind = (typeof CONVERSATION_KINDS)[number];

/** Whether a task or plan is still open, done or cancelled. */
export type FactStatus = 'open' | 'done' | 'cancelled';

export interface CorpusFact {
  kind: FactKind;
  /** A short text the memory's rendering must contain (case-insensitive). */
  value: string;
  status?: FactStatus;
}

export interface CorpusTurn {
  user: string;
  assistant: string;
  /** Facts memory should hold as current right after this turn. */
  expect: CorpusFact[];
  /** Values memory must no longer hold as current after this turn. */
  stale: CorpusFact[];
  /** Parts of the assistant's message that must never become the user's memory. */
  advice: string[];
}

export interface CorpusSession {
  start: string;
  turns: CorpusTurn[];
}

export interface CorpusQuestion {
  ask: string;
  /** Texts the packet must show. */
  show: string[];
  /** Stale values the packet must not show as current facts. */
  not_current: StaleText[];
}

/**
 * A stale value as a packet would show it, and, when the value alone could name another true fact
 * ("9 May" is the day the course no longer is, and also the day of a shift), the words of the fact it
 * is stale for ("first aid"). In the files a plain string is a value with nothing about it.
 */
export interface StaleText {
  value: string;
  about?: string;
}

export interface CorpusConversation {
  id: string;
  language: 'en' | 'zh';
  kinds: ConversationKind[];
  sessions: CorpusSession[];
  questions: CorpusQuestion[];
}

/** Where the corpus lives: `bench/data/memory-corpus/`, or the held-out set, `bench/data/memory-holdout/`. */
export function corpusDir(set: 'corpus' | 'holdout' = 'corpus'): string {
  return fileURLToPath(new URL(set === 'corpus' ? './data/memory-corpus/' : './data/memory-holdout/', import.meta.url));
}

function fail(where: string, message: string): never {
  throw new Error(`memory corpus: ${where}: ${message}`);
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.trim() === '') fail(where, 'must be a non-empty string');
  return value;
}

function texts(value: unknown, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(where, 'must be an array of strings');
  return value.map((entry, index) => text(entry, `${where}[${index}]`));
}

function staleTexts(value: unknown, where: string): StaleText[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(where, 'must be an array of strings or { value, about } objects');
  return value.map((entry, index) => {
    const spot = `${where}[${index}]`;
    if (typeof entry === 'string') return { value: text(entry, spot) };
    if (typeof entry !== 'object' || entry === null) fail(spot, 'must be a string or a { value, about } object');
    const record = entry as Record<string, unknown>;
    return { value: text(record['value'], `${spot}.value`), about: text(record['about'], `${spot}.about`) };
  });
}

function fact(value: unknown, where: string): CorpusFact {
  if (typeof value !== 'object' || value === null) fail(where, 'must be an object');
  const record = value as Record<string, unknown>;
  const kind = record['kind'];
  if (!FACT_KINDS.includes(kind as FactKind))
    fail(`${where}.kind`, `must be one of ${FACT_KINDS.join(', ')} (got ${String(kind)})`);
  const said = text(record['value'], `${where}.value`);
  const status = record['status'];
  if (status !== undefined && status !== 'open' && status !== 'done' && status !== 'cancelled')
    fail(`${where}.status`, 'must be open, done or cancelled');
  return { kind: kind as FactKind, value: said, ...(status === undefined ? {} : { status }) };
}

/** A fact's value is said in its turn: by the user, or by the assistant confirming something done. */
function checkSaid(entry: CorpusFact, turn: { user: string; assistant: string }, where: string): void {
  const needle = entry.value.toLowerCase();
  if (!turn.user.toLowerCase().includes(needle) && !turn.assistant.toLowerCase().includes(needle))
    fail(`${where}.value`, `"${entry.value}" is not in the turn's messages`);
}

function conversation(value: unknown, where: string, language: 'en' | 'zh'): CorpusConversation {
  if (typeof value !== 'object' || value === null) fail(where, 'must be an object');
  const record = value as Record<string, unknown>;
  const id = text(record['id'], `${where}.id`);
  const at = `${where} (${id})`;
  const kinds = texts(record['kinds'], `${at}.kinds`);
  for (const kind of kinds)
    if (!CONVERSATION_KINDS.includes(kind as ConversationKind)) fail(`${at}.kinds`, `unknown kind ${kind}`);
  if (!Array.isArray(record['sessions']) || record['sessions'].length === 0)
    fail(`${at}.sessions`, 'must be a non-empty array');
  let last = '';
  const sessions = (record['sessions'] as unknown[]).map((session, index): CorpusSession => {
    const here = `${at}.sessions[${index}]`;
    const entry = session as Record<string, unknown>;
    const start = text(entry['start'], `${here}.start`);
    if (Number.isNaN(Date.parse(start))) fail(`${here}.start`, 'must be a date-time');
    const iso = new Date(start).toISOString();
    if (iso <= last) fail(`${here}.start`, 'sessions must be in time order');
    last = iso;
    if (!Array.isArray(entry['turns']) || entry['turns'].length === 0)
      fail(`${here}.turns`, 'must be a non-empty array');
    const turns = (entry['turns'] as unknown[]).map((raw, turnIndex): CorpusTurn => {
      const spot = `${here}.turns[${turnIndex}]`;
      const turn = raw as Record<string, unknown>;
      const said = {
        user: text(turn['user'], `${spot}.user`),
        assistant: text(turn['assistant'], `${spot}.assistant`),
      };
      const list = (name: 'expect' | 'stale') => {
        const value = turn[name];
        if (value === undefined) return [];
        if (!Array.isArray(value)) fail(`${spot}.${name}`, 'must be an array');
        return value.map((item, itemIndex) => fact(item, `${spot}.${name}[${itemIndex}]`));
      };
      const expect = list('expect');
      for (const [itemIndex, item] of expect.entries()) checkSaid(item, said, `${spot}.expect[${itemIndex}]`);
      return { ...said, expect, stale: list('stale'), advice: texts(turn['advice'], `${spot}.advice`) };
    });
    return { start: iso, turns };
  });
  const questions = (Array.isArray(record['questions']) ? record['questions'] : []).map(
    (raw: unknown, index: number): CorpusQuestion => {
      const spot = `${at}.questions[${index}]`;
      const question = raw as Record<string, unknown>;
      return {
        ask: text(question['ask'], `${spot}.ask`),
        show: texts(question['show'], `${spot}.show`),
        not_current: staleTexts(question['not_current'], `${spot}.not_current`),
      };
    },
  );
  return { id, language, kinds: kinds as ConversationKind[], sessions, questions };
}

/**
 * Every conversation of the corpus, file by file (`en-*.json`, `zh-*.json`), checked.
 *
 * @example
 * const conversations = loadCorpus();
 * const untouched = loadCorpus(corpusDir('holdout'), ['en-3', 'en-4', 'zh-3']);
 */
export function loadCorpus(dir = corpusDir(), only?: readonly string[]): CorpusConversation[] {
  const files = readdirSync(dir)
    .filter(
      (name) =>
        /^(en|zh)-[\w-]+\.json$/u.test(name) && (only === undefined || only.includes(name.replace(/\.json$/u, ''))),
    )
    .sort();
  if (files.length === 0)
    throw new Error(
      `memory corpus: no ${only === undefined ? 'en-*.json or zh-*.json' : only.map((name) => `${name}.json`).join(', ')} in ${dir}`,
    );
  const out: CorpusConversation[] = [];
  const ids = new Set<string>();
  for (const name of files) {
    const language = name.startsWith('zh') ? 'zh' : 'en';
    const data = JSON.parse(readFileSync(`${dir}${name}`, 'utf8')) as unknown;
    if (!Array.isArray(data)) fail(name, 'must hold an array of conversations');
    for (const [index, raw] of data.entries()) {
      const entry = conversation(raw, `${name}[${index}]`, language);
      if (ids.has(entry.id)) fail(name, `conversation id ${entry.id} is used twice`);
      ids.add(entry.id);
      out.push(entry);
    }
  }
  return out;
}
