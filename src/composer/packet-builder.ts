// Budget accounting for one packet. Every candidate item is offered in its forms, richest first
// (raw → quote → summary → ref); the first form that fits both its section's budget and the global
// budget is taken, each step down is recorded as a degradation, and an item with no fitting form is
// omitted with its reason. Costs are real tokens of the item as a prompt shows it (item-text.ts).

import { LRUCache } from 'lru-cache';

import type { BudgetSection, Citation, Degradation, ExplainOmission, Omission } from '../spec/packet.js';
import type { Tokenizer } from '../spec/tokenizer.js';
import { EngramError } from '../spec/errors.js';
import type { EventRecord } from '../spec/event.js';
import type { MemoryItem } from '../spec/items.js';
import { storedTextTokens } from '../spec/text-tokens.js';
import { o200kTokenizer } from '../util/tokenizer.js';
import { escapeXmlText, joinLine, type ItemLine } from './item-text.js';
import { blockFraming, packetFraming, type BlockTag, type RenderFormat } from './render.js';

export type Level = 'raw' | 'quote' | 'summary' | 'ref';

/** Stable reason codes for omissions. */
export type OmissionReason =
  | 'over_budget'
  | 'low_priority'
  | 'duplicate'
  | 'expired'
  | 'low_confidence'
  | 'not_allowed_for_purpose'
  | 'closed'
  | 'disabled_by_request';

export interface Offer<T> {
  /** Explain id of the item, for example `key_quotes:evt_…#0`. */
  item: string;
  section: BudgetSection;
  /** The rule that chose the candidate. */
  rule: string;
  /** Forms in degradation order; each is what would be placed in the packet. */
  forms: ReadonlyArray<{ level: Level; value: T }>;
  /** The form as a prompt shows it; its tokens are the form's cost. */
  text: (value: T) => string;
  /** The form's cost, when it is known without counting its whole text (a line with a count kept in its row). */
  cost?: (value: T) => number;
  /** The rendered part the item shows under, when its explain id does not tell (preferences, insights). */
  block?: BlockTag;
  /** Evidence the item cites. */
  cites?: readonly Citation[];
  /**
   * The last form never costs more than the others (a reference is a prefix of every form). Once
   * its section has turned an item away, the builder tries that form first, and an item for which
   * even it does not fit is omitted without costing the richer forms.
   */
  smallestLast?: boolean;
}

/**
 * A form whose value is built the first time it is read: a degraded form costs nothing unless the
 * richer ones did not fit.
 *
 * @example
 * const summary = lazyForm('summary', () => ({ ...fact, notes: tokenizer.truncate(fact.notes, 16) }));
 */
export function lazyForm<T>(level: Level, make: () => T): { readonly level: Level; readonly value: T } {
  return new LazyForm(level, make);
}

// A class, not an object literal with a getter: V8 gives each such literal a hidden class of its own
// holding its getter, in the old generation; until the next full collection those keep every getter's
// closure, and through it the whole compose that made it, alive across young collections, which then
// promote some 150 kB a compose (a young collection of ~9 ms every dozen composes on the tenant benchmark).
class LazyForm<T> {
  private make: (() => T) | undefined;
  private made: T | undefined;

  constructor(
    readonly level: Level,
    make: () => T,
  ) {
    this.make = make;
  }

  get value(): T {
    if (this.make !== undefined) {
      this.made = this.make();
      this.make = undefined;
    }
    return this.made as T;
  }
}

/** What rendering adds to each item: a bullet (or indentation) and a line break. */
export const RENDER_LINE = 2;

/** Tokens of framing pieces in the format that takes more of them (each piece counted on its own). */
function framingCost(tokenizer: Tokenizer, pieces: Record<RenderFormat, string[]>): number {
  const sum = (texts: readonly string[]) => texts.reduce((total, text) => total + cachedCount(tokenizer, text), 0);
  return Math.max(sum(pieces.markdown), sum(pieces.xml));
}

/** What the rendering of a packet looks like: its title's parts, and the tokenizer of its markup. */
export interface RenderFrame {
  purpose: string;
  generatedAt: string;
  /** Counts markup as it is (a prompt tokenizer would count `<tag>` escaped, as item text is). */
  tokenizer: Tokenizer;
}

const HEADING_COSTS = new Map<string, number>();

/** Tokens a rendered part adds once (its heading or tag pair), in the format that takes more. */
function headingCost(tokenizer: Tokenizer, block: BlockTag): number {
  const key = `${tokenizer.name}\u0000${block}`;
  let tokens = HEADING_COSTS.get(key);
  if (tokens === undefined) {
    tokens = framingCost(tokenizer, blockFraming(block));
    HEADING_COSTS.set(key, tokens);
  }
  return tokens;
}

/** The rendered part of an explain id's prefix (`key_quotes:evt_…` → `key_quotes`). */
const BLOCK_OF_PART: Readonly<Record<string, BlockTag>> = {
  working_state: 'working_state',
  open_loops: 'open_loops',
  last_tool_evidence: 'tool_evidence',
  rolling_summary: 'summary',
  key_quotes: 'key_quotes',
  conversation_window: 'conversation',
  facts: 'facts',
  procedures: 'procedures',
  episodes: 'episodes',
};

const NEEDS_ESCAPE = /[&<>]/;
/** A label the handle's `]` never joins (a space or digit first) and that ends before the text's space. */
const SEPARABLE_LABEL = /^(?:[ \p{N}].*\S)?$/su;

/** Whether a line's tokens are those of its handle, label and text apart (text-tokens.ts). */
function separable(line: ItemLine): boolean {
  return line.handle !== '' && SEPARABLE_LABEL.test(line.label) && !NEEDS_ESCAPE.test(line.label);
}

/**
 * The tokenizer budgets count with: a text costs the larger of its two renderings, as it is
 * (Markdown) and escaped for XML (`&amp;` and the like take more tokens), so a packet fits its
 * budget in either format. Truncation is the tokenizer's own.
 *
 * @example
 * promptTokenizer(o200kTokenizer).count('Q&A') // the tokens of 'Q&amp;A'
 */
export function promptTokenizer(tokenizer: Tokenizer): Tokenizer {
  return {
    specificationVersion: 'v1',
    name: `${tokenizer.name}+xml`,
    count(text: string): number {
      const plain = tokenizer.count(text);
      return NEEDS_ESCAPE.test(text) ? Math.max(plain, tokenizer.count(escapeXmlText(text))) : plain;
    },
    truncate: (text: string, maxTokens: number): string => tokenizer.truncate(text, maxTokens),
    // Escaping for XML keeps every count key's equivalence: it changes `& < >` only.
    ...(tokenizer.countKey === undefined ? {} : { countKey: tokenizer.countKey }),
  };
}

// Token counts of texts, one cache per tokenizer name, under each text's count key (texts that differ
// only in their digits share one entry with o200k_base: a packet's title with its time, dates,
// numbered keys). An LRU: evicting the oldest entry of a plain Map makes the next eviction walk over
// the slots of every entry deleted before it (microseconds each). Bounded by the characters of its
// keys as well (8M, about 16 MB), since rolling summaries are kilobytes long.
const COST_CACHES = new Map<string, LRUCache<string, number>>();

/** The tokens of a text, through the count cache of its tokenizer. */
function cachedCount(tokenizer: Tokenizer, text: string): number {
  let cache = COST_CACHES.get(tokenizer.name);
  if (cache === undefined) {
    cache = new LRUCache<string, number>({
      max: 20_000,
      maxSize: 8_000_000,
      sizeCalculation: (_tokens, key) => Math.max(1, key.length),
    });
    COST_CACHES.set(tokenizer.name, cache);
  }
  const key = tokenizer.countKey === undefined ? text : tokenizer.countKey(text);
  let tokens = cache.get(key);
  if (tokens === undefined) {
    tokens = tokenizer.count(text);
    cache.set(key, tokens);
  }
  return tokens;
}

/** Where the part of an explain id ends (`key_quotes:…`, `working_state.goal`, `open_loops[0]`). */
const PART_END = /[.:[]/u;

/** The rendered part an item shows under: the offer's, or the one its explain id names. */
function blockOf(item: string, block: BlockTag | undefined): BlockTag {
  if (block !== undefined) return block;
  const end = item.search(PART_END);
  const part = end < 0 ? item : item.slice(0, end);
  const known = BLOCK_OF_PART[part];
  if (known === undefined) throw new EngramError('INTERNAL', `no rendered part for packet item ${item}`);
  return known;
}

export class PacketBuilder {
  private readonly sectionUsed = new Map<BudgetSection, number>();
  private total = 0;
  private framing = 0;
  private readonly parts = new Set<BlockTag>();
  private readonly citationsById = new Map<string, Citation>();
  private readonly full = new Set<BudgetSection>();
  readonly selected: string[] = [];
  readonly omitted: ExplainOmission[] = [];
  readonly omissions: Omission[] = [];
  readonly degradations: Degradation[] = [];

  private readonly perSection: Record<BudgetSection, number>;

  private readonly markupTokenizer: Tokenizer;
  /** Counts kept with rows and summary sentences are the built-in tokenizer's: used only when it is the one counting. */
  readonly keptCounts: boolean;

  /**
   * @param frame the packet's rendering: the title (Markdown) or root element (XML), whichever
   * takes more tokens, is charged at once, and each part's heading when its first item is placed
   */
  constructor(
    private readonly tokenizer: Tokenizer,
    readonly maxTokens: number,
    perSection: Readonly<Record<BudgetSection, number>>,
    frame: RenderFrame,
  ) {
    this.perSection = { ...perSection };
    this.markupTokenizer = frame.tokenizer;
    this.keptCounts = frame.tokenizer === o200kTokenizer;
    this.framing = Math.min(framingCost(frame.tokenizer, packetFraming(frame.purpose, frame.generatedAt)), maxTokens);
    this.total = this.framing;
  }

  /**
   * Raises a section's allowance to everything the packet has left: budget the other sections did
   * not use. Returns the tokens added.
   */
  lendRemaining(section: BudgetSection): number {
    const sectionLeft = this.perSection[section] - (this.sectionUsed.get(section) ?? 0);
    const extra = Math.max(0, this.maxTokens - this.total - sectionLeft);
    this.perSection[section] += extra;
    if (extra > 0) this.full.delete(section);
    return extra;
  }

  /** Each section's allowance as it ended (idle sections' budget lent, unused budget lent to cue passages). */
  sectionBudgets(): Record<BudgetSection, number> {
    return { ...this.perSection };
  }

  /** Tokens of a text as the model will see it (counts are cached: the same items recur across packets). */
  cost(text: string): number {
    return cachedCount(this.tokenizer, text);
  }

  /**
   * Tokens of a record's handle and whole text in its line (text-tokens.ts): as its row keeps them,
   * or counted now; the same number either way.
   */
  recordTokens(record: EventRecord | MemoryItem, line: ItemLine): number {
    return (
      (this.keptCounts ? storedTextTokens(record) : undefined) ?? this.cost(line.handle) + this.cost(` ${line.body}`)
    );
  }

  /**
   * Tokens of a prompt line. Given `recordTokens` (the line shows its record's whole text), they are
   * those plus the label's, which is what the joined line counts (text-tokens.ts); a line whose
   * parts the tokenizer could join across, or with a label the XML rendering escapes, is counted
   * whole.
   */
  lineCost(line: ItemLine, recordTokens?: number): number {
    if (recordTokens === undefined || !separable(line)) return this.cost(joinLine(line));
    return recordTokens + (line.label === '' ? 0 : this.cost(line.label));
  }

  /** Tokens left in a section, bounded by what is left of the whole budget. */
  left(section: BudgetSection): number {
    const sectionLeft = this.perSection[section] - (this.sectionUsed.get(section) ?? 0);
    return Math.max(0, Math.min(sectionLeft, this.maxTokens - this.total));
  }

  /** Charges tokens that are always spent (for example the working state's version). */
  charge(section: BudgetSection, tokens: number): void {
    this.sectionUsed.set(section, (this.sectionUsed.get(section) ?? 0) + tokens);
    this.total += tokens;
  }

  /** Render overhead of one more item of a part: its line, and the part's heading if it is the first. */
  overhead(item: string, block?: BlockTag): number {
    const tag = blockOf(item, block);
    return RENDER_LINE + (this.parts.has(tag) ? 0 : headingCost(this.markupTokenizer, tag));
  }

  /** Takes the richest form that fits, or omits the item; returns the form taken. */
  offer<T>(offer: Offer<T>): { level: Level; value: T } | undefined {
    const room = this.left(offer.section);
    const steps: Level[] = [];
    const extra = this.overhead(offer.item, offer.block);
    const smallest = offer.forms[offer.forms.length - 1];
    const costOf = (value: T) => (offer.cost === undefined ? this.cost(offer.text(value)) : offer.cost(value));
    if (
      offer.smallestLast === true &&
      this.full.has(offer.section) &&
      smallest !== undefined &&
      costOf(smallest.value) + extra > room
    ) {
      this.omit(offer.item, 'over_budget', offer.section, `needs more than the ${room} tokens left`);
      return undefined;
    }
    let previous: string | undefined;
    for (const form of offer.forms) {
      const text = offer.text(form.value);
      // A degraded form that reads the same as the richer one is no step down.
      if (text === previous) continue;
      previous = text;
      const tokens = (offer.cost === undefined ? this.cost(text) : offer.cost(form.value)) + extra;
      if (tokens <= room) {
        this.parts.add(blockOf(offer.item, offer.block));
        this.charge(offer.section, tokens);
        this.cite(offer.cites ?? []);
        this.recordSteps(offer, steps, form.level, room);
        this.selected.push(
          form.level === 'raw' ? `${offer.item}: ${offer.rule}` : `${offer.item}: ${offer.rule} [${form.level}]`,
        );
        return form;
      }
      steps.push(form.level);
    }
    this.full.add(offer.section);
    this.omit(offer.item, 'over_budget', offer.section, `needs more than the ${room} tokens left`);
    return undefined;
  }

  private recordSteps<T>(offer: Offer<T>, tried: Level[], taken: Level, room: number): void {
    const path = [...tried, taken];
    for (let index = 1; index < path.length; index += 1) {
      this.degradations.push({
        section: offer.section,
        action: `${offer.item}: ${path[index - 1]}→${path[index]}`,
        reason: `over_budget: ${room} tokens left in ${offer.section}`,
      });
    }
  }

  /** Records an item left out, with its reason code and a human-readable detail. */
  omit(item: string, reason: OmissionReason, section: string, detail: string): void {
    this.omitted.push({ item, reason, section, detail });
    this.omissions.push({ item, reason });
  }

  /** Adds evidence to the packet's citations (de-duplicated, first mention wins). */
  cite(citations: readonly Citation[]): void {
    for (const citation of citations) {
      if (!this.citationsById.has(citation.id)) this.citationsById.set(citation.id, citation);
    }
  }

  get usedTokens(): number {
    return this.total;
  }

  sectionUsage(): Record<string, number> {
    const usage: Record<string, number> = { framing: this.framing };
    for (const section of Object.keys(this.perSection) as BudgetSection[])
      usage[section] = this.sectionUsed.get(section) ?? 0;
    return usage;
  }

  citations(): Citation[] {
    return [...this.citationsById.values()];
  }
}
