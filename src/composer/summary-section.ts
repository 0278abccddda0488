// The short_term_summary budget section: passages of the user's history that match the cues, the
// rolling summary, key quotes, and (where the purpose allows) the recent conversation window.

import type { EventRecord } from '../spec/event.js';
import type { Citation, KeyQuote, Purpose, WindowMessage } from '../spec/packet.js';
import type { StmSummary, SummarySentence } from '../spec/summary.js';
import type { Tokenizer } from '../spec/tokenizer.js';
import { contentText } from '../events/content-text.js';
import { cutSummary, keptSummaryTokens, packetRole } from '../working-memory/summary.js';
import { lazyForm, type PacketBuilder } from './packet-builder.js';
import type { PurposePolicy } from './policy.js';
import { TEXT_LIMITS, textForms } from './text-forms.js';
import { coveredUntil, snapshotOpening } from './snapshot-section.js';
import { idTime } from '../util/ids.js';
import type { CompactionSnapshot } from '../spec/compaction.js';
import { itemLine, itemText } from './item-text.js';
import { citationOf } from './working-state-section.js';
import { topicTerms, type CuePassage } from './cue-passages.js';
import { bestSnippet, cueMatcher } from './best-sentence.js';

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

/** The fewest tokens a passage line takes: handle, role, date, a few words and the line break. */
const MIN_PASSAGE_TOKENS = 24;

/** The most words of a passage's snippet (its best-matching sentence and those around it). */
const SNIPPET_WORDS = 40;

function isLive(expiresAt: string | null, now: string): boolean {
  return expiresAt === null || expiresAt > now;
}

function sentenceCitation(sentence: SummarySentence): Citation {
  return { id: sentence.event_id, type: sentence.role === 'tool' ? 'tool_result' : 'message', ts: sentence.ts };
}

function quoteOf(sentence: Pick<SummarySentence, 'event_id' | 'role' | 'ts'>, quote: string): KeyQuote {
  return { evidence_id: sentence.event_id, quote, role: sentence.role, ts: sentence.ts };
}

/**
 * Fills the short_term_summary section: the rolling summary first (up to the policy's share of
 * the section), then passages matching the cues, key quotes, and the conversation window; last,
 * further passages matching the cues in the budget the other sections left unused (call it after
 * every other section is filled).
 *
 * @example
 * const output = fillSummarySection(builder, inputs, policy, tokenizer);
 */
export function fillSummarySection(
  builder: PacketBuilder,
  inputs: SummaryInputs,
  policy: PurposePolicy,
  tokenizer: Tokenizer,
): SummaryOutput {
  const quoted = new Set<string>();
  const keyQuotes: Array<{ order: string; quote: KeyQuote }> = [];

  const covered = coveredUntil(inputs.snapshot ?? null);
  const sentences = inputs.summary?.sentences ?? [];
  // Without a snapshot every sentence is uncovered (no need to read each event id's time).
  const pool =
    covered === Number.NEGATIVE_INFINITY
      ? sentences
      : sentences.filter((sentence) => idTime(sentence.event_id) > covered);
  for (const sentence of pool) {
    if (!isLive(sentence.expires_at, inputs.now)) {
      builder.omit(
        `rolling_summary:${sentence.event_id}#${sentence.position}`,
        'expired',
        'short_term_summary',
        'its source event has expired',
      );
    }
  }
  const heading = builder.overhead('rolling_summary');
  const fullShare = Math.max(0, Math.floor(builder.left('short_term_summary') * policy.summary_share) - heading);
  const before = builder.left('short_term_summary');
  const opening = snapshotOpening(builder, inputs.snapshot ?? null, fullShare);
  const share = Math.max(0, fullShare - (before - builder.left('short_term_summary')));
  // The sum of the counts its sentences keep, else counted through the packet's count cache (a
  // session's summary is the same from one compose to the next until a turn is committed).
  const count = (text: string) => builder.cost(text);
  const cut = cutSummary(
    pool,
    share,
    tokenizer,
    (sentence) => isLive(sentence.expires_at, inputs.now),
    (used, text) => (builder.keptCounts ? keptSummaryTokens(used, count) : undefined) ?? count(text),
  );
  let rollingSummary = opening;
  if (opening !== '' && cut.used.length === 0) builder.charge('short_term_summary', heading);
  if (cut.used.length > 0) {
    // Each summary line is rendered on its own line: charge a line break per role change as well.
    builder.charge('short_term_summary', cut.tokens + heading + cut.text.split('\n').length);
    rollingSummary = opening === '' ? cut.text : `${opening}\n${cut.text}`;
    builder.selected.push(
      `rolling_summary: stm.extractive_summary(${cut.used.length} sentences, ${cut.tokens} tokens)`,
    );
    builder.cite(cut.used.map(sentenceCitation));
    if (cut.dropped.length > 0) {
      builder.degradations.push({
        section: 'short_term_summary',
        action: `rolling_summary: ${cut.used.length + cut.dropped.length}→${cut.used.length} sentences`,
        reason: `over_budget: summary share is ${share} tokens`,
      });
    }
  }

  // Passages matching the cues: the policy's top ones now, the rest (further down the ranking)
  // once everything else is placed, in whatever budget the other sections left unused.
  // A top passage is shown whole when its line fits its share of the section; a longer one, and
  // every further passage, shows its snippet: the sentence that best matches the cues with the
  // sentences around it, up to SNIPPET_WORDS words. The matching sentence often only names the
  // topic and the answer sits next to it ("What concert was it?" / "It was Matt Patterson"). A
  // speaker's name never picks the sentence: in a conversation it is on every line ("Thanks,
  // Caroline!"). LoCoMo, answer words shown with their evidence at 256 / 500 / 1,000 / 2,000 tokens:
  // best sentence alone, whole up to half the share 0.484 / 0.540 / 0.586 / 0.764; snippets of 40
  // words, whole up to the share 0.589 / 0.687 / 0.760 / 0.849 (BENCHMARKS.md).
  const wholeCap = Math.floor(builder.left('short_term_summary') / Math.max(1, policy.query_quotes));
  const matcher = cueMatcher(
    topicTerms(
      inputs.cueTerms,
      inputs.cueHits.map((passage) => passage.event),
    ),
    inputs.cueHits.map((passage) => contentText(passage.event.content)),
  );
  const offerPassage = ({ event, rule }: CuePassage, rank: number, spare: boolean): void => {
    const text = contentText(event.content);
    const role = packetRole(event);
    const quoteOfForm = (value: string) => quoteOf({ event_id: event.id, role, ts: event.ts }, value);
    // The tokens of its line's handle and whole text (kept with the event's row) decide whether it is shown whole.
    const whole = spare ? undefined : builder.recordTokens(event, itemLine.keyQuote(quoteOfForm(text)));
    const cost = (quote: KeyQuote) =>
      builder.lineCost(itemLine.keyQuote(quote), quote.quote === text ? whole : undefined);
    const forms = textForms(
      text,
      tokenizer,
      { raw: 160, quote: 60, summary: 20 },
      () => bestSnippet(text, matcher, SNIPPET_WORDS),
      { sentenceOnly: spare, wholeTokens: whole },
    ).filter(
      (form) =>
        (form.level !== 'raw' || cost(quoteOfForm(form.value)) <= wholeCap) &&
        (form.level !== 'ref' || inputs.purpose !== 'responder'),
    );
    const taken = builder.offer({
      cost,
      item: `key_quotes:${event.id}`,
      section: 'short_term_summary',
      rule: spare ? `${rule.slice(0, -1)}, budget left by other sections)` : rule,
      // A further passage shows its snippet (or less), never a bare reference: many short
      // passages answer more questions than a few long ones.
      forms: forms.map((form) => lazyForm(form.level, () => quoteOfForm(form.value))),
      text: itemText.keyQuote,
      cites: [citationOf(event)],
      smallestLast: spare,
    });
    if (taken !== undefined) {
      quoted.add(event.id);
      keyQuotes.push({ order: `0-${String(rank).padStart(4, '0')}`, quote: taken.value });
    }
  };
  const topHits = inputs.cueHits.slice(0, policy.query_quotes);
  for (const [rank, passage] of topHits.entries()) offerPassage(passage, rank, false);

  const inSummary = new Set(cut.used.map((sentence) => `${sentence.event_id}#${sentence.position}`));
  const ranked = [...(inputs.summary?.key_quotes ?? [])].sort((a, b) => b.score - a.score);
  for (const [rank, sentence] of ranked.entries()) {
    const item = `key_quotes:${sentence.event_id}#${sentence.position}`;
    if (!isLive(sentence.expires_at, inputs.now)) {
      builder.omit(item, 'expired', 'short_term_summary', 'its source event has expired');
    } else if (inSummary.has(`${sentence.event_id}#${sentence.position}`)) {
      builder.omit(item, 'duplicate', 'short_term_summary', 'the sentence is already in the rolling summary');
    } else if (quoted.has(sentence.event_id)) {
      builder.omit(item, 'duplicate', 'short_term_summary', 'the event is already quoted for the cues');
    } else if (rank >= policy.key_quotes) {
      builder.omit(item, 'low_priority', 'short_term_summary', `beyond the top ${policy.key_quotes} key quotes`);
    } else {
      const taken = builder.offer({
        item,
        section: 'short_term_summary',
        rule: `stm.key_quote(score ${sentence.score})`,
        forms: textForms(sentence.text, tokenizer, { raw: 80, quote: 40, summary: 16 }).map((form) =>
          lazyForm(form.level, () => quoteOf(sentence, form.value)),
        ),
        text: itemText.keyQuote,
        cites: [sentenceCitation(sentence)],
      });
      if (taken !== undefined)
        keyQuotes.push({ order: `1-${sentence.event_id}-${sentence.position}`, quote: taken.value });
    }
  }

  const window: WindowMessage[] = [];
  for (const event of inputs.windowEvents) {
    const text = contentText(event.content);
    const message = (content: string): WindowMessage => ({
      evidence_id: event.id,
      role: packetRole(event),
      content,
      ts: event.ts,
    });
    const whole = builder.recordTokens(event, itemLine.windowMessage(message(text)));
    const taken = builder.offer({
      item: `conversation_window:${event.id}`,
      section: 'short_term_summary',
      rule: 'events.recent_messages',
      forms: textForms(text, tokenizer, TEXT_LIMITS, undefined, { wholeTokens: whole }).map((form) =>
        lazyForm(form.level, () => message(form.value)),
      ),
      text: itemText.windowMessage,
      cost: (message) =>
        builder.lineCost(itemLine.windowMessage(message), message.content === text ? whole : undefined),
      cites: [citationOf(event)],
    });
    if (taken !== undefined) window.push(taken.value);
  }
  window.reverse();

  const spareHits = inputs.cueHits.slice(policy.query_quotes);
  if (spareHits.length > 0 && builder.lendRemaining('short_term_summary') > 0) {
    for (const [index, passage] of spareHits.entries()) {
      const { event } = passage;
      if (quoted.has(event.id)) continue;
      // Once no passage line can fit (its handle, role and date alone take ~17 tokens), the rest
      // are left out without costing them.
      const room = builder.left('short_term_summary');
      if (room < MIN_PASSAGE_TOKENS) {
        builder.omit(
          `key_quotes:${event.id}`,
          'over_budget',
          'short_term_summary',
          `needs more than the ${room} tokens left`,
        );
        continue;
      }
      offerPassage(passage, policy.query_quotes + index, true);
    }
  }

  keyQuotes.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
  return {
    rolling_summary: rollingSummary,
    key_quotes: keyQuotes.map((entry) => entry.quote),
    conversation_window: window,
  };
}
