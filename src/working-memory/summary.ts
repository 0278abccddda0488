// Short-term memory: a deterministic extractive summarizer. Each new event's sentences are scored
// on their own (content words, numbers, names, cue phrases, role; small talk scores low), the best
// are kept in a bounded pool, and a rolling summary of any token budget is cut from the pool.
// Scores never depend on later text, so folding events one by one or in a batch gives one result.

import { LRUCache } from 'lru-cache';

import type { EventRecord } from '../spec/event.js';
import type { PacketRole } from '../spec/packet.js';
import type { StmSummary, SummarySentence } from '../spec/summary.js';
import type { Tokenizer } from '../spec/tokenizer.js';
import { analyseEvent, type EventText } from '../events/analyze.js';
import { speakerLabel, speakerName } from '../events/speaker.js';
import { words } from '../util/segment.js';
import { STOPWORDS } from '../util/stopwords.js';
import { LONG_RUN_CHARS, o200kTokenizer } from '../util/tokenizer.js';

export interface SummaryOptions {
  /** Sentences kept in the pool. */
  poolSize: number;
  /** Key quotes kept. */
  quoteCount: number;
  /** Longest sentence kept, in tokens; longer ones are cut. */
  maxSentenceTokens: number;
  /** Sentences read from one event. */
  maxSentencesPerEvent: number;
}

export const defaultSummaryOptions: SummaryOptions = {
  poolSize: 64,
  quoteCount: 12,
  maxSentenceTokens: 80,
  maxSentencesPerEvent: 24,
};

const QUOTE_MIN_SCORE = 0.75;

// Words and phrases that mark a statement worth remembering (checked against the sentence's words).
const CUE_WORDS = new Set(
  (
    'prefer preference prefers decide decided decision must need needs require required deadline important remember ' +
    'always never goal plan want wants promise agree agreed budget allergic favorite favourite love hate birthday ' +
    "address should will don't 喜欢 更喜欢 偏好 决定 必须 需要 重要 记住 目标 计划 截止 总是 从不 不要 请用 希望"
  ).split(' '),
);
const CUE_PHRASE = /\b(name is|call me|do not)\b/iu;
const SMALL_TALK =
  /^(hi|hello|hey|thanks|thank you|thx|ok|okay|sure|great|cool|nice|bye|good (morning|night|evening)|lol|haha|yes|no|yep|nope|你好|谢谢|好的|嗯|哈哈|再见)\b/iu;
const DIGIT = /\p{Nd}/u;
const REFERENCE = /(https?:\/\/|www\.|[\w-]+\.(md|ts|js|py|json|pdf|docx?|csv|txt)\b|\/[\w.-]+\/)/iu;
const PROPER_NOUN = /\s\p{Lu}\p{Ll}+/u;

/** The role of an event as packets show it. */
export function packetRole(event: Pick<EventRecord, 'role'>): PacketRole {
  return event.role === 'human' ? 'user' : event.role === 'tool' ? 'tool' : 'assistant';
}

/**
 * How worth keeping one sentence is, in about [0, 2]. Deterministic: text and role only.
 *
 * @example
 * scoreSentence('I prefer dark mode in every editor.', 'user') > scoreSentence('ok thanks', 'user') // true
 */
export function scoreSentence(text: string, role: PacketRole, all: readonly string[] = words(text)): number {
  const content = new Set(all.filter((word) => !STOPWORDS.has(word)));
  let score = Math.min(content.size, 12) / 12;
  if (all.some((word) => CUE_WORDS.has(word)) || CUE_PHRASE.test(text)) score += 0.4;
  if (DIGIT.test(text)) score += 0.25;
  if (REFERENCE.test(text)) score += 0.2;
  if (PROPER_NOUN.test(text)) score += 0.1;
  if (role === 'user') score += 0.15;
  if (role === 'tool') score *= 0.8;
  if (content.size < 3 && SMALL_TALK.test(text.trim())) score -= 0.6;
  if (content.size === 0) score = 0;
  return Math.round(Math.max(0, score) * 1000) / 1000;
}

/** Sentences that differ only in case, spacing or punctuation are one sentence. */
function dedupKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Better first: higher score, then newer. */
function better(a: SummarySentence, b: SummarySentence): number {
  if (a.score !== b.score) return b.score - a.score;
  return logOrder(b, a);
}

/** Log order: by event id (monotonic), then position in the event. */
export function logOrder(a: SummarySentence, b: SummarySentence): number {
  if (a.event_id !== b.event_id) return a.event_id < b.event_id ? -1 : 1;
  return a.position - b.position;
}

/** Keeps the `size` best sentences, one per distinct text, in log order. */
function keepBest(pool: SummarySentence[], size: number): SummarySentence[] {
  const seen = new Set<string>();
  const kept: SummarySentence[] = [];
  for (const sentence of [...pool].sort(better)) {
    const key = dedupKey(sentence.text);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(sentence);
    if (kept.length >= size) break;
  }
  return kept.sort(logOrder);
}

/**
 * The scored sentences of one event (none for secret events, markers, state patches and structured
 * tool output). Their text is not yet cut to `maxSentenceTokens` and `tokens` is -1: only the
 * sentences that enter the pool are measured (see `measured`), which keeps long imports cheap.
 */
export function sentencesOf(
  event: EventRecord,
  analysed: EventText = analyseEvent(event),
  options = defaultSummaryOptions,
): SummarySentence[] {
  // Structured tool output is evidence, not prose: packets carry it as tool evidence instead.
  if (event.kind === 'tool_result' && typeof event.content !== 'string') return [];
  const role = packetRole(event);
  const speaker = speakerName(event.speaker);
  const out: SummarySentence[] = [];
  analysed.sentences.slice(0, options.maxSentencesPerEvent).forEach(({ text, words: sentenceWords }, position) => {
    const score = scoreSentence(text, role, sentenceWords);
    if (score <= 0) return;
    out.push({
      event_id: event.id,
      position,
      role,
      ...(speaker === undefined ? {} : { speaker }),
      ts: event.ts,
      text,
      tokens: -1,
      score,
      expires_at: event.expires_at,
    });
  });
  return out;
}

/**
 * A sentence cut to `maxSentenceTokens` with its token count (one encoding in the common case), and
 * with the built-in tokenizer its count as the summary shows it, after a space (`spaced_tokens`).
 */
function measured(sentence: SummarySentence, tokenizer: Tokenizer, options: SummaryOptions): SummarySentence {
  if (sentence.tokens >= 0) return sentence;
  let text = sentence.text;
  let tokens = tokenizer.count(text);
  if (tokens > options.maxSentenceTokens) {
    text = tokenizer.truncate(text, options.maxSentenceTokens);
    tokens = tokenizer.count(text);
  }
  return {
    ...sentence,
    text,
    tokens,
    ...(tokenizer === o200kTokenizer ? { spaced_tokens: spacedTokens(text, tokens) } : {}),
  };
}

// Counts of first words alone and after a space (built-in tokenizer): sentences open with few words.
const FIRST_WORDS = new LRUCache<string, readonly [number, number]>({ max: 4096 });

/**
 * The built-in tokenizer's count of ` ${text}`, given that of `text`. The space changes only the
 * pieces of the first word (the text up to its first space, where the pre-tokenizer starts a new
 * piece when a non-space comes before it), so the count is the text's with the first word's count
 * alone swapped for its count after a space; a text whose first whitespace is no plain space, or
 * long enough to be counted by its bytes, is counted again (summary.test.ts checks the equality).
 *
 * @example
 * spacedTokens('Hello world.', o200kTokenizer.count('Hello world.')) // o200kTokenizer.count(' Hello world.')
 */
export function spacedTokens(text: string, tokens: number): number {
  const end = text.search(/\s/u);
  if (end <= 0 || text[end] !== ' ' || text.length >= LONG_RUN_CHARS - 1) return o200kTokenizer.count(` ${text}`);
  const word = text.slice(0, end);
  let counts = FIRST_WORDS.get(word);
  if (counts === undefined) {
    counts = [o200kTokenizer.count(word), o200kTokenizer.count(` ${word}`)];
    FIRST_WORDS.set(word, counts);
  }
  return tokens - counts[0] + counts[1];
}

/**
 * Folds new events into a session's summary and returns the next version (the input is unchanged).
 *
 * @example
 * const next = foldEvents(current ?? emptySummary(), events, o200kTokenizer, now);
 */
export function foldEvents(
  current: StmSummary,
  events: readonly EventRecord[],
  tokenizer: Tokenizer,
  updatedAt: string,
  analyses: ReadonlyMap<string, EventText> = new Map(),
  options = defaultSummaryOptions,
): StmSummary {
  const fresh = events.flatMap((event) => sentencesOf(event, analyses.get(event.id) ?? analyseEvent(event), options));
  const measure = (sentence: SummarySentence) => measured(sentence, tokenizer, options);
  const pool = keepBest([...current.sentences, ...fresh], options.poolSize).map(measure);
  const quoteCandidates = fresh.filter((sentence) => sentence.score >= QUOTE_MIN_SCORE && sentence.role !== 'tool');
  const quotes = keepBest([...current.key_quotes, ...quoteCandidates], options.quoteCount).map(measure);
  return {
    version: current.version + 1,
    sentences: pool,
    key_quotes: quotes,
    last_event_id: events.length > 0 ? events[events.length - 1]!.id : current.last_event_id,
    events_folded: current.events_folded + events.length,
    updated_at: updatedAt,
  };
}

const ROLE_LABEL: Record<PacketRole, string> = { user: 'User', assistant: 'Assistant', tool: 'Tool' };

/** Who a line of the summary says spoke: the speaker's name (`speakerLabel`), else the role. */
function labelOf(sentence: Pick<SummarySentence, 'role' | 'speaker'>): string {
  return speakerLabel(sentence.speaker) ?? ROLE_LABEL[sentence.role];
}

/**
 * Renders sentences (in log order) as summary text: one line per run of one speaker (`Caroline: …`),
 * or of one role where the events name no speaker (`User: …`).
 */
export function renderSummary(selected: readonly SummarySentence[]): string {
  const lines: string[] = [];
  let label: string | undefined;
  for (const sentence of selected) {
    const said = labelOf(sentence);
    if (said === label) lines[lines.length - 1] += ` ${sentence.text}`;
    else lines.push(`${said}: ${sentence.text}`);
    label = said;
  }
  return lines.join('\n');
}

// A sentence whose text is words and punctuation with single spaces between (no other whitespace, no
// `& < >`, which the XML rendering escapes) and shorter than a run the tokenizer counts by bytes.
const ADDITIVE = /^[^\s&<>](?:[^\s&<>]| (?=[^\s&<>]))*$/u;

/**
 * The tokens of `renderSummary(selected)` from the counts its sentences keep (`spaced_tokens`), or
 * undefined when one keeps none or its text is not plain enough for the sum to be exact. `count` is
 * the built-in tokenizer's, for the pieces between sentences: a role label with its colon, and what
 * a line break adds after a line's last sentence. The sum is exact because the o200k pre-tokenizer
 * cuts the rendered text where the sentences meet: a sentence's pieces end with it (no piece takes
 * the space after it), the space before it opens its first piece as it does alone, and a line break
 * either joins the punctuation that ends the line or is a piece of its own (see summary.test.ts).
 *
 * @example
 * keptSummaryTokens(used, (text) => o200kTokenizer.count(text)) // o200kTokenizer.count(renderSummary(used))
 */
export function keptSummaryTokens(
  selected: readonly SummarySentence[],
  count: (text: string) => number,
): number | undefined {
  let total = 0;
  let label: string | undefined;
  let last = '';
  for (const sentence of selected) {
    const kept = sentence.spaced_tokens;
    if (kept === undefined || sentence.text.length >= LONG_RUN_CHARS || !ADDITIVE.test(sentence.text)) return undefined;
    const said = labelOf(sentence);
    if (said !== label) {
      // A name the XML rendering escapes, or one the tokenizer could join with its colon, is counted with the text.
      if (!ADDITIVE.test(said) || !/^[\p{L}\p{N}](?:.*[\p{L}\p{N}])?$/u.test(said)) return undefined;
      if (label !== undefined) total += lineBreakTokens(last, count);
      total += count(`${said}:`);
      label = said;
    }
    total += kept;
    last = sentence.text;
  }
  return total;
}

/**
 * What a line break adds after a line ending with `text`: counted on the text's last word after its
 * space (a piece starts at every single space), so the counts are of a few characters that recur.
 */
function lineBreakTokens(text: string, count: (text: string) => number): number {
  const space = text.lastIndexOf(' ');
  const tail = space < 0 ? ` ${text}` : text.slice(space);
  return count(`${tail}\n`) - count(tail);
}

/**
 * The rolling summary that fits `maxTokens`: the best sentences that fit, shown in log order.
 * Sentences the `keep` filter refuses (for example expired ones) are left out. `countUsed` gives the
 * tokens of the text of the sentences used (default: the tokenizer counts the text).
 *
 * @example
 * cutSummary(summary.sentences, 200, o200kTokenizer).text
 */
export function cutSummary(
  pool: readonly SummarySentence[],
  maxTokens: number,
  tokenizer: Tokenizer,
  keep: (sentence: SummarySentence) => boolean = () => true,
  countUsed: (used: readonly SummarySentence[], text: string) => number = (_used, text) => tokenizer.count(text),
): { text: string; tokens: number; used: SummarySentence[]; dropped: SummarySentence[] } {
  const ranked = pool.filter(keep).sort(better);
  const used: SummarySentence[] = [];
  const dropped: SummarySentence[] = [];
  let estimate = 0;
  for (const sentence of ranked) {
    // Role labels and line breaks cost a few tokens per sentence; the exact count is checked below.
    const cost = sentence.tokens + 3;
    if (estimate + cost <= maxTokens) {
      used.push(sentence);
      estimate += cost;
    } else {
      dropped.push(sentence);
    }
  }
  used.sort(logOrder);
  let text = renderSummary(used);
  let tokens = countUsed(used, text);
  while (tokens > maxTokens && used.length > 0) {
    const worst = [...used].sort(better).pop()!;
    used.splice(used.indexOf(worst), 1);
    dropped.push(worst);
    text = renderSummary(used);
    tokens = countUsed(used, text);
  }
  return { text, tokens, used, dropped };
}
