// The short_term_summary budget section: passages of the user's history that match the cues, the
// rolling summary, key quotes, and (where the purpose allows) the recent conversation window.

import type { EventRecord } from '../spec/event.js';
import type { Citation, KeyQuote, Purpose, WindowMessage } from '../spec/packet.js';
import type { SessionKey } from '../spec/scope.js';
import type { EventQuery, StorageAdapter } from '../spec/storage.js';
import type { StmSummary, SummarySentence } from '../spec/summary.js';
import type { Tokenizer } from '../spec/tokenizer.js';
import { contentText } from '../events/content-text.js';
import { summaryAsOf } from '../working-memory/as-of.js';
import { cutSummary, keptSummaryTokens, packetRole } from '../working-memory/summary.js';
import type { Charge, Entry, Offer, Omitted, PacketBuilder } from './packet-builder.js';
import type { PurposePolicy } from './policy.js';
import { lazyForm, TEXT_LIMITS, textForms } from './forms.js';
import { coveredUntil, snapshotOpening } from './snapshot-section.js';
import { idTime } from '../util/ids.js';
import type { CompactionSnapshot } from '../spec/compaction.js';
import { itemLine, itemText, quoteDayHeading, speakerSummary } from './item-text.js';
import { speakerName } from '../events/speaker.js';
import { spokenCitation } from './working-state-section.js';
import { topicTerms, type CuePassage } from './cue-passages.js';
import { cueMatcher } from './best-sentence.js';
import { passageOffer, quoteOf } from './passage-offer.js';

/** Events read beyond the window's size at first, for system messages the window leaves out. */
const WINDOW_MARGIN = 2;

/**
 * The session's rolling summary (as of `asOf` when given, folded with `tokenizer`) and its newest
 * `window` messages and tool results (`events`: the session's event filters).
 *
 * @example
 * const { summary, windowEvents } = await gatherSummary(storage, key, events, 6, tokenizer, undefined);
 */
export async function gatherSummary(
  storage: StorageAdapter,
  key: SessionKey,
  events: Omit<EventQuery, 'limit'>,
  window: number,
  tokenizer: Tokenizer,
  asOf: string | undefined,
): Promise<{ summary: StmSummary | null; windowEvents: EventRecord[] }> {
  const [summary, windowEvents] = await Promise.all([
    asOf === undefined ? storage.sessions.getSummary(key) : summaryAsOf(storage, key, asOf, tokenizer),
    window > 0 ? recentMessages(storage, events, window) : Promise.resolve([]),
  ]);
  return { summary, windowEvents };
}

/**
 * The newest `window` messages and tool results of the session, newest first, without system
 * messages: a page of the window and a small margin, then further pages only while system
 * messages took places.
 */
async function recentMessages(
  storage: StorageAdapter,
  base: Omit<EventQuery, 'limit'>,
  window: number,
): Promise<EventRecord[]> {
  const out: EventRecord[] = [];
  let cursor: string | undefined;
  while (out.length < window) {
    const limit = window - out.length + WINDOW_MARGIN;
    const page = await storage.events.list({
      ...base,
      kinds: ['message', 'tool_result'],
      order: 'desc',
      limit,
      ...(cursor === undefined ? {} : { cursor }),
    });
    for (const event of page) if (event.role !== 'system' && out.length < window) out.push(event);
    if (page.length < limit) break;
    cursor = page[page.length - 1]!.id;
  }
  return out;
}

export interface SummaryInputs {
  summary: StmSummary | null;
  /** Passages for the cues, best first, each with the rule that chose it. */
  cueHits: readonly CuePassage[];
  cueTerms: readonly string[];
  /** Who reads the packet: a responder's passages are shown as text or not at all, never as a bare reference. */
  purpose: Purpose;
  /** Recent messages of the session, newest first; empty when the window is off. */
  windowEvents: readonly EventRecord[];
  now: string;
  /** The run's latest valid snapshot: its verified claims open the summary, which then covers only what came after. */
  snapshot?: CompactionSnapshot | null;
}

export interface SummaryOutput {
  rolling_summary: string;
  key_quotes: KeyQuote[];
  conversation_window: WindowMessage[];
}

function isLive(expiresAt: string | null, now: string): boolean {
  return expiresAt === null || expiresAt > now;
}

function sentenceCitation(sentence: SummarySentence): Citation {
  const summary = speakerSummary(sentence.speaker ?? null);
  return {
    id: sentence.event_id,
    type: sentence.role === 'tool' ? 'tool_result' : 'message',
    ts: sentence.ts,
    ...(summary === undefined ? {} : { summary }),
  };
}

/** A key quote placed, with where it sorts: cue passages by rank first, then key quotes by event and sentence. */
interface Quoted {
  order: string;
  quote: KeyQuote;
}

/**
 * Fills the short_term_summary section: the rolling summary first (up to the policy's share of
 * the section), then, with the budget the other sections left unused added to the section,
 * passages matching the cues, key quotes, and the conversation window; last, further passages
 * matching the cues in whatever is left (call it after every other section is filled).
 *
 * @example
 * const output = fillSummarySection(builder, inputs, policy);
 */
export function fillSummarySection(
  builder: PacketBuilder,
  inputs: SummaryInputs,
  policy: PurposePolicy,
): SummaryOutput {
  const rollingSummary = placeRollingSummary(builder, inputs, policy);
  // Passages matching the cues: the policy's top ones now, the rest (further down the ranking)
  // once the key quotes and the window are placed, in whatever budget is left.
  // A top passage is shown whole when its line fits its share of the section; a longer one, and
  // every further passage, shows its snippet: the sentence that best matches the cues with the
  // sentences around it, up to 40 words (20 for the spare ones past the fifth; passage-offer.ts). The matching sentence often only names the
  // topic and the answer sits next to it ("What concert was it?" / "It was Matt Patterson"). A
  // speaker's name never picks the sentence: in a conversation it is on every line ("Thanks,
  // Caroline!"). LoCoMo, answer words shown with their evidence at 256 / 500 / 1,000 / 2,000 tokens:
  // best sentence alone, whole up to half the share 0.484 / 0.540 / 0.586 / 0.764; snippets of 40
  // words, whole up to the share 0.589 / 0.687 / 0.760 / 0.849 (BENCHMARKS.md).
  const passages = {
    purpose: inputs.purpose,
    wholeCap: Math.floor(builder.left('short_term_summary') / Math.max(1, policy.query_quotes)),
    matcher: cueMatcher(
      topicTerms(
        inputs.cueTerms,
        inputs.cueHits.map((passage) => passage.event),
      ),
      inputs.cueHits.map((passage) => contentText(passage.event.content)),
    ),
  };
  // Every other section is placed: what they left unused is this section's from here on, so a top
  // passage is shown whole where the section's own allowance would have cut it, and whatever is
  // still left goes to further passages. (Lent only after the passages, the 10 % the facts keep
  // went unused whenever no fact fitted: LoCoMo evidence cited at 256 tokens 0.663 → 0.693.)
  builder.lendRemaining('short_term_summary');
  const quoted = new Set<string>();
  const keyQuotes: Quoted[] = [];
  const placePassages = (ranked: ReadonlyArray<{ passage: CuePassage; rank: number }>, spare: boolean) => {
    const offers = ranked.map(({ passage }, index) => passageOffer(builder, passages, passage, spare, index));
    for (const [index, taken] of builder.place(offers).entries()) {
      if (taken === undefined) continue;
      const { passage, rank } = ranked[index]!;
      quoted.add(passage.event.id);
      keyQuotes.push({ order: `0-${String(rank).padStart(4, '0')}`, quote: taken.value });
    }
  };
  const rankedHits = inputs.cueHits.map((passage, rank) => ({ passage, rank }));
  placePassages(rankedHits.slice(0, policy.query_quotes), false);

  const window = placeQuotesAndWindow(builder, inputs, policy, rollingSummary.inSummary, quoted, keyQuotes);

  const spareHits = rankedHits.slice(policy.query_quotes);
  if (spareHits.length > 0 && builder.left('short_term_summary') > 0)
    placePassages(
      spareHits.filter(({ passage }) => !quoted.has(passage.event.id)),
      true,
    );

  keyQuotes.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
  return {
    rolling_summary: rollingSummary.text,
    key_quotes: keyQuotes.map((entry) => entry.quote),
    conversation_window: window,
  };
}

/**
 * Places the rolling summary: the snapshot's opening and the summary's sentences within the
 * policy's share of the section, its expired sentences left out. Returns its text and the
 * sentences it shows (`event_id#position`).
 */
function placeRollingSummary(
  builder: PacketBuilder,
  inputs: SummaryInputs,
  policy: PurposePolicy,
): { text: string; inSummary: Set<string> } {
  const { costs } = builder;
  const section = 'short_term_summary';
  const covered = coveredUntil(inputs.snapshot ?? null);
  const sentences = inputs.summary?.sentences ?? [];
  // Without a snapshot every sentence is uncovered (no need to read each event id's time).
  const pool =
    covered === Number.NEGATIVE_INFINITY
      ? sentences
      : sentences.filter((sentence) => idTime(sentence.event_id) > covered);
  const entries: Array<Omitted | Charge> = pool
    .filter((sentence) => !isLive(sentence.expires_at, inputs.now))
    .map((sentence) => ({
      omit: { part: 'rolling_summary', id: sentence.event_id, sentence: sentence.position },
      reason: 'expired',
      section,
      detail: 'its source event has expired',
    }));
  const heading = builder.overhead({ part: 'rolling_summary' });
  const fullShare = Math.max(0, Math.floor(builder.left(section) * policy.summary_share) - heading);
  const opening = snapshotOpening(costs, inputs.snapshot ?? null, fullShare);
  if (opening.charge !== undefined) entries.push(opening.charge);
  const share = Math.max(0, fullShare - (opening.charge?.charge ?? 0));
  // The sum of the counts its sentences keep, else counted through the packet's count cache (a
  // session's summary is the same from one compose to the next until a turn is committed).
  const count = (text: string) => costs.cost(text);
  const cut = cutSummary(
    pool,
    share,
    costs.tokenizer,
    (sentence) => isLive(sentence.expires_at, inputs.now),
    (used, text) => (costs.keptCounts ? keptSummaryTokens(used, count) : undefined) ?? count(text),
  );
  let text = opening.text;
  if (opening.text !== '' && cut.used.length === 0) entries.push({ charge: heading, section });
  if (cut.used.length > 0) {
    entries.push({
      // Each summary line is rendered on its own line: charge a line break per role change as well.
      charge: cut.tokens + heading + cut.text.split('\n').length,
      section,
      select: {
        ref: { part: 'rolling_summary' },
        rule: `stm.extractive_summary(${cut.used.length} sentences, ${cut.tokens} tokens)`,
      },
      cites: cut.used.map(sentenceCitation),
      ...(cut.dropped.length === 0
        ? {}
        : {
            degradation: {
              section,
              action: `rolling_summary: ${cut.used.length + cut.dropped.length}→${cut.used.length} sentences`,
              reason: `over_budget: summary share is ${share} tokens`,
            },
          }),
    });
    text = opening.text === '' ? cut.text : `${opening.text}\n${cut.text}`;
  }
  builder.place(entries);
  return { text, inSummary: new Set(cut.used.map((sentence) => `${sentence.event_id}#${sentence.position}`)) };
}

/**
 * Places the summary's key quotes (the top ones by score not already shown) and the conversation
 * window; returns the window, oldest first.
 */
function placeQuotesAndWindow(
  builder: PacketBuilder,
  inputs: SummaryInputs,
  policy: PurposePolicy,
  inSummary: ReadonlySet<string>,
  quoted: ReadonlySet<string>,
  keyQuotes: Quoted[],
): WindowMessage[] {
  const { costs } = builder;
  const section = 'short_term_summary';
  const entries: Array<Entry<KeyQuote | WindowMessage>> = [];
  const orders: Array<string | undefined> = [];
  const ranked = [...(inputs.summary?.key_quotes ?? [])].sort((a, b) => b.score - a.score);
  for (const [rank, sentence] of ranked.entries()) {
    const ref = { part: 'key_quotes' as const, id: sentence.event_id, sentence: sentence.position };
    const omit = (reason: Omitted['reason'], detail: string) => {
      entries.push({ omit: ref, reason, section, detail });
      orders.push(undefined);
    };
    if (!isLive(sentence.expires_at, inputs.now)) omit('expired', 'its source event has expired');
    else if (inSummary.has(`${sentence.event_id}#${sentence.position}`))
      omit('duplicate', 'the sentence is already in the rolling summary');
    else if (quoted.has(sentence.event_id)) omit('duplicate', 'the event is already quoted for the cues');
    else if (rank >= policy.key_quotes) omit('low_priority', `beyond the top ${policy.key_quotes} key quotes`);
    else {
      const offer: Offer<KeyQuote> = {
        ref,
        section,
        rule: `stm.key_quote(score ${sentence.score})`,
        forms: textForms(sentence.text, costs.tokenizer, { raw: 80, quote: 40, summary: 16 }).map((form) =>
          lazyForm(form.level, () => quoteOf(sentence, form.value)),
        ),
        // Named by who said it; a sentence kept before sentences kept speakers, as the packet's citation of its event names.
        text: (quote) => itemText.keyQuote(quote, sentence.speaker ?? builder.speakerOf(quote.evidence_id)),
        group: quoteDayHeading(sentence),
        cites: [sentenceCitation(sentence)],
      };
      entries.push(offer as Offer<KeyQuote | WindowMessage>);
      // Event ids sort by time; the position is padded so an event's sentence 2 comes before its 10.
      orders.push(`1-${sentence.event_id}-${String(sentence.position).padStart(6, '0')}`);
    }
  }
  const quotes = entries.length;
  for (const event of inputs.windowEvents) {
    const text = contentText(event.content);
    const message = (content: string): WindowMessage => ({
      evidence_id: event.id,
      role: packetRole(event),
      content,
      ts: event.ts,
    });
    const speaker = speakerName(event.speaker);
    const lineOf = (shown: WindowMessage) => itemLine.windowMessage(shown, speaker);
    const whole = costs.recordTokens(event, lineOf(message(text)));
    const offer: Offer<WindowMessage> = {
      ref: { part: 'conversation_window', id: event.id },
      section,
      rule: 'events.recent_messages',
      forms: textForms(text, costs.tokenizer, TEXT_LIMITS, undefined, { wholeTokens: whole }).map((form) =>
        lazyForm(form.level, () => message(form.value)),
      ),
      text: (shown) => itemText.windowMessage(shown, speaker),
      whole: { record: event, line: (shown) => (shown.content === text ? lineOf(shown) : undefined) },
      cites: [spokenCitation(event)],
    };
    entries.push(offer as Offer<KeyQuote | WindowMessage>);
  }
  const placed = builder.place(entries);
  for (const [index, taken] of placed.slice(0, quotes).entries())
    if (taken !== undefined) keyQuotes.push({ order: orders[index]!, quote: taken.value as KeyQuote });
  return placed
    .slice(quotes)
    .flatMap((taken) => (taken === undefined ? [] : [taken.value as WindowMessage]))
    .reverse();
}
