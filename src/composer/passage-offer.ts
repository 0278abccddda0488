// The offer of a passage of the user's history that matches the cues, as a key quote: whole, or by
// its snippet (the sentence that best matches the cues with the sentences around it), never as a
// bare reference to a responder.

import type { KeyQuote, Purpose } from '../spec/packet.js';
import type { SummarySentence } from '../spec/summary.js';
import { contentText } from '../events/content-text.js';
import { speakerName } from '../events/speaker.js';
import { packetRole } from '../working-memory/summary.js';
import { bestSnippet, type CueMatcher } from './best-sentence.js';
import type { CuePassage } from './cue-passages.js';
import { lazyForm, textForms } from './forms.js';
import { itemLine, itemText, quoteDayHeading } from './item-text.js';
import type { Offer, PacketBuilder } from './packet-builder.js';
import { spokenCitation } from './working-state-section.js';

/** The fewest tokens a passage line takes: handle, role, date, a few words and the line break. */
const MIN_PASSAGE_TOKENS = 24;

/** The most words of a passage's snippet (its best-matching sentence and those around it). */
const SNIPPET_WORDS = 40;

/**
 * Further (spare) passages past the first FULL_SNIPPET_SPARES show snippets of SHORT_SNIPPET_WORDS:
 * the lower a passage ranks, the less likely it holds the answer, so the room of the last ones is
 * better spent on more of them. LoCoMo, evidence cited at 1,000 / 2,000 tokens 0.836 / 0.880 →
 * 0.837 / 0.890 (41 passages at 2,000 instead of 37), answer shown 0.843 / 0.899 → 0.844 / 0.900;
 * every spare at 30 words 0.837 / 0.887, at 15 words 0.841 / 0.895 but answer shown 0.838 / 0.897
 * (BENCHMARKS.md).
 */
const FULL_SNIPPET_SPARES = 5;
const SHORT_SNIPPET_WORDS = 20;

/** A key quote of an event's text (or a part of it), as the packet carries it. */
export function quoteOf(sentence: Pick<SummarySentence, 'event_id' | 'role' | 'ts'>, quote: string): KeyQuote {
  return { evidence_id: sentence.event_id, quote, role: sentence.role, ts: sentence.ts };
}

/**
 * The offer of a passage matching the cues: whole when its line fits `wholeCap` (a top passage), else
 * its snippet; a further (`spare`) passage (the `index`-th) shows its snippet, a shorter one past the
 * first FULL_SNIPPET_SPARES, or less, never a bare reference, and is
 * left out without costing it once no passage line can fit (its handle, role and date alone take
 * ~17 tokens): many short passages answer more questions than a few long ones.
 *
 * @example
 * const offer = passageOffer(builder, { purpose: 'responder', wholeCap: 120, matcher }, passage, true, 6);
 */
export function passageOffer(
  builder: PacketBuilder,
  passages: { purpose: Purpose; wholeCap: number; matcher: CueMatcher },
  { event, rule }: CuePassage,
  spare: boolean,
  index: number,
): Offer<KeyQuote> {
  const { costs } = builder;
  const text = contentText(event.content);
  const role = packetRole(event);
  const speaker = speakerName(event.speaker);
  const quoteOfForm = (value: string) => quoteOf({ event_id: event.id, role, ts: event.ts }, value);
  const lineOf = (quote: KeyQuote) => itemLine.keyQuote(quote, speaker);
  // The tokens of its line's handle and whole text (kept with the event's row) decide whether it is shown whole.
  const whole = spare ? undefined : costs.recordTokens(event, lineOf(quoteOfForm(text)));
  const forms = textForms(
    text,
    costs.tokenizer,
    { raw: 160, quote: 60, summary: 20 },
    () =>
      bestSnippet(text, passages.matcher, spare && index >= FULL_SNIPPET_SPARES ? SHORT_SNIPPET_WORDS : SNIPPET_WORDS),
    { sentenceOnly: spare, wholeTokens: whole },
  ).filter(
    (form) =>
      (form.level !== 'raw' ||
        costs.lineCost(lineOf(quoteOfForm(form.value)), form.value === text ? whole : undefined) <=
          passages.wholeCap) &&
      (form.level !== 'ref' || passages.purpose !== 'responder'),
  );
  return {
    ref: { part: 'key_quotes', id: event.id },
    section: 'short_term_summary',
    rule: spare ? `${rule.slice(0, -1)}, budget left by other sections)` : rule,
    group: quoteDayHeading({ ts: event.ts }),
    forms: forms.map((form) => lazyForm(form.level, () => quoteOfForm(form.value))),
    text: (quote) => itemText.keyQuote(quote, speaker),
    ...(spare
      ? { smallestLast: true, minRoom: MIN_PASSAGE_TOKENS }
      : { whole: { record: event, line: (quote: KeyQuote) => (quote.quote === text ? lineOf(quote) : undefined) } }),
    cites: [spokenCitation(event)],
  };
}
