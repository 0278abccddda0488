// Budget accounting for one packet. Sections hand the builder plain entries in order: offers (an
// item in its forms, richest first: raw → quote → summary → ref), items left out with their reason,
// and text charged whole (the rolling summary). For an offer the first form that fits both its
// section's budget and the global budget is taken, each step down is recorded as a degradation, and
// an item with no fitting form is omitted. Costs are real tokens of the item as a prompt shows it
// (item-text.ts, text-tokens.ts). The builder writes explain ids only into explain; what it decides
// by (the rendered part, the records a build selected) it reads from the structured ref.

import type { BudgetReport, BudgetSection, Citation, Degradation, ExplainOmission, Omission } from '../spec/packet.js';
import type { Tokenizer } from '../spec/tokenizer.js';
import { EngramError } from '../spec/errors.js';
import type { EventRecord } from '../spec/event.js';
import type { MemoryItem } from '../spec/items.js';
import { citedSpeaker, type ItemLine } from './item-text.js';
import { framingCost, itemFramingCost } from './framing-costs.js';
import { packetFraming, type BlockTag } from './render.js';
import type { LineCosts } from './text-tokens.js';
import type { Level } from './forms.js';

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

/** The parts of a packet that explain names items in. */
export type PacketPart =
  | 'working_state'
  | 'open_loops'
  | 'last_tool_evidence'
  | 'rolling_summary'
  | 'key_quotes'
  | 'conversation_window'
  | 'facts'
  | 'procedures'
  | 'episodes'
  | 'insights';

/**
 * What an explain entry is about: a part of the packet and, as the part needs, a working-state
 * field, a place in a list, the event, item version or insight shown, a sentence of that event, or
 * (for an item with no id) a label. explainId writes it as explain shows it.
 */
export interface ItemRef {
  part: PacketPart;
  field?: string;
  index?: number;
  id?: string;
  sentence?: number;
  label?: string;
}

/**
 * The explain id of an item: `working_state.goal`, `open_loops[0]`, `key_quotes:evt_…#2`.
 *
 * @example
 * explainId({ part: 'working_state', field: 'decisions', index: 1 }) // 'working_state.decisions[1]'
 */
export function explainId(ref: ItemRef): string {
  const field = ref.field === undefined ? '' : `.${ref.field}`;
  const index = ref.index === undefined ? '' : `[${ref.index}]`;
  const name = ref.id ?? ref.label;
  const sentence = ref.sentence === undefined ? '' : `#${ref.sentence}`;
  return `${ref.part}${field}${index}${name === undefined ? '' : `:${name}`}${sentence}`;
}

/** An item offered in its forms. */
export interface Offer<T> {
  ref: ItemRef;
  section: BudgetSection;
  /** The rule that chose the candidate. */
  rule: string;
  /** Forms in degradation order; each is what would be placed in the packet. */
  forms: ReadonlyArray<{ level: Level; value: T }>;
  /** The form as a prompt shows it; its tokens are the form's cost. */
  text: (value: T) => string;
  /**
   * The record the item shows, and the line of a form that shows the record's whole text (undefined
   * for a cut form): such a line costs the tokens its row keeps plus its label's.
   */
  whole?: { record: EventRecord | MemoryItem; line: (value: T) => ItemLine | undefined };
  /** The rendered part the item shows under, when its part does not tell (preferences, insights). */
  block?: BlockTag;
  /** Evidence the item cites. */
  cites?: readonly Citation[];
  /**
   * The last form never costs more than the others (a reference is a prefix of every form). Once
   * its section has turned an item away, the builder tries that form first, and an item for which
   * even it does not fit is omitted without costing the richer forms.
   */
  smallestLast?: boolean;
  /** With fewer tokens than this left in its section, the item is omitted without costing its forms. */
  minRoom?: number;
  /**
   * The heading of the group the item shows under inside its part (the day of a key quote): the
   * first item of a group placed pays for it.
   */
  group?: string;
}

/** An item left out, with its reason code and a human-readable detail. */
export interface Omitted {
  omit: ItemRef;
  reason: OmissionReason;
  section: string;
  detail: string;
}

/** Tokens spent whole on a section (the rolling summary's text, its heading), with what they placed. */
export interface Charge {
  charge: number;
  section: BudgetSection;
  select?: { ref: ItemRef; rule: string };
  cites?: readonly Citation[];
  degradation?: Degradation;
}

export type Entry<T> = Offer<T> | Omitted | Charge;

/** The form an offer placed. */
export interface Placed<T> {
  level: Level;
  value: T;
}

/** What the rendering of a packet looks like: its title's parts, and the tokenizer of its markup. */
export interface RenderFrame {
  purpose: string;
  generatedAt: string;
  /** Counts markup as it is (a prompt tokenizer would count `<tag>` escaped, as item text is). */
  tokenizer: Tokenizer;
}

/** The rendered part of each packet part whose items all show under one (insights and facts say theirs). */
const BLOCK_OF_PART: Readonly<Partial<Record<PacketPart, BlockTag>>> = {
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

/** The rendered part an item shows under: the offer's, or its part's. */
function blockOf(ref: ItemRef, block: BlockTag | undefined): BlockTag {
  const tag = block ?? BLOCK_OF_PART[ref.part];
  if (tag === undefined) throw new EngramError('INTERNAL', `no rendered part for packet item ${explainId(ref)}`);
  return tag;
}

/** Parts whose ids are events or item versions: what a context build records as selected (insights are not). */
const RECORD_PARTS: ReadonlySet<PacketPart> = new Set<PacketPart>([
  'last_tool_evidence',
  'rolling_summary',
  'key_quotes',
  'conversation_window',
  'facts',
  'procedures',
  'episodes',
]);

/** A packet's record of its budget and choices, for its budget_report, citations and explain. */
export interface PacketRecord {
  citations: Citation[];
  budget_report: BudgetReport;
  selected: string[];
  omitted: ExplainOmission[];
  /** Each section's allowance as it ended (idle sections' budget lent, unused budget lent to cue passages). */
  section_budgets: Record<BudgetSection, number>;
  /** The events and item versions placed, each once, in the order they were placed. */
  records: string[];
}

/**
 * The budget and record of one packet: compose makes one, each section places its entries, and
 * finish() gives what the packet reports.
 *
 * @example
 * const builder = new PacketBuilder(new LineCosts(tokenizer), 1000, perSection, { purpose, generatedAt, tokenizer });
 */
export class PacketBuilder {
  private readonly sectionUsed = new Map<BudgetSection, number>();
  private total = 0;
  private readonly framing: number;
  private readonly parts = new Set<BlockTag>();
  /** The groups placed, by part: `key_quotes\u00002023-08-23:`. */
  private readonly groups = new Set<string>();
  private readonly citationsById = new Map<string, Citation>();
  /** Events with a quote or message line placed: their citation keeps the speaker it had then. */
  private readonly shownBy = new Set<string>();
  private readonly full = new Set<BudgetSection>();
  private readonly selected: string[] = [];
  private readonly records = new Set<string>();
  private readonly omitted: ExplainOmission[] = [];
  private readonly omissions: Omission[] = [];
  private readonly degradations: Degradation[] = [];
  private readonly perSection: Record<BudgetSection, number>;
  private readonly markupTokenizer: Tokenizer;

  /**
   * @param costs what lines cost, as the prompt shows them
   * @param frame the packet's rendering: the title (Markdown) or root element (XML), whichever
   * takes more tokens, is charged at once, and each part's heading when its first item is placed
   */
  constructor(
    readonly costs: LineCosts,
    readonly maxTokens: number,
    perSection: Readonly<Record<BudgetSection, number>>,
    frame: RenderFrame,
  ) {
    this.perSection = { ...perSection };
    this.markupTokenizer = frame.tokenizer;
    this.framing = Math.min(framingCost(frame.tokenizer, packetFraming(frame.purpose, frame.generatedAt)), maxTokens);
    this.total = this.framing;
  }

  /**
   * Places entries in order; one result per entry: the form an offer placed, else undefined.
   *
   * @example
   * const [taken] = builder.place([{ ref: { part: 'facts', id: item.id }, section: 'facts', rule, forms, text }]);
   */
  place<T>(entries: ReadonlyArray<Entry<T>>): Array<Placed<T> | undefined> {
    return entries.map((entry) => {
      if ('omit' in entry) this.omit(entry);
      else if ('charge' in entry) this.charged(entry);
      else return this.offer(entry);
      return undefined;
    });
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

  /** Tokens left in a section, bounded by what is left of the whole budget. */
  left(section: BudgetSection): number {
    const sectionLeft = this.perSection[section] - (this.sectionUsed.get(section) ?? 0);
    return Math.max(0, Math.min(sectionLeft, this.maxTokens - this.total));
  }

  /**
   * Render overhead of one more item of a part: its line, the part's heading if it is the first, and
   * its group's heading if it is the first of its group.
   */
  overhead(ref: ItemRef, block?: BlockTag, group?: string): number {
    const tag = blockOf(ref, block);
    return itemFramingCost(this.markupTokenizer, tag, {
      newPart: !this.parts.has(tag),
      group,
      newGroup: group !== undefined && !this.groups.has(`${tag}\u0000${group}`),
    });
  }

  /** The packet's record: call it once every section is placed. */
  finish(): PacketRecord {
    const usage: Record<string, number> = { framing: this.framing };
    for (const section of Object.keys(this.perSection) as BudgetSection[])
      usage[section] = this.sectionUsed.get(section) ?? 0;
    return {
      citations: [...this.citationsById.values()],
      budget_report: {
        max_tokens: this.maxTokens,
        used_tokens_est: this.total,
        section_usage: usage,
        degradations: this.degradations,
        omissions: this.omissions,
      },
      selected: this.selected,
      omitted: this.omitted,
      section_budgets: { ...this.perSection },
      records: [...this.records],
    };
  }

  private charge(section: BudgetSection, tokens: number): void {
    this.sectionUsed.set(section, (this.sectionUsed.get(section) ?? 0) + tokens);
    this.total += tokens;
  }

  private charged(entry: Charge): void {
    this.charge(entry.section, entry.charge);
    if (entry.select !== undefined) this.select(entry.select.ref, entry.select.rule);
    this.cite(entry.cites ?? []);
    if (entry.degradation !== undefined) this.degradations.push(entry.degradation);
  }

  private select(ref: ItemRef, line: string): void {
    this.selected.push(`${explainId(ref)}: ${line}`);
    if (ref.id !== undefined && RECORD_PARTS.has(ref.part)) this.records.add(ref.id);
  }

  /** Takes the richest form that fits, or omits the item; returns the form taken. */
  private offer<T>(offer: Offer<T>): Placed<T> | undefined {
    const room = this.left(offer.section);
    // What a form costs: a line showing its record's whole text costs the tokens the record keeps
    // (the same for every such line of it, so read once) plus its label's; any other, its text counted.
    let wholeTokens: number | undefined;
    const costOf = (value: T) => {
      const line = offer.whole?.line(value);
      if (line === undefined) return this.costs.cost(offer.text(value));
      wholeTokens ??= this.costs.recordTokens(offer.whole!.record, line);
      return this.costs.lineCost(line, wholeTokens);
    };
    const tooLittle = () => this.omitOverBudget(offer, room);
    if (offer.minRoom !== undefined && room < offer.minRoom) return tooLittle();
    const steps: Level[] = [];
    const extra = this.overhead(offer.ref, offer.block, offer.group);
    const smallest = offer.forms[offer.forms.length - 1];
    if (
      offer.smallestLast === true &&
      this.full.has(offer.section) &&
      smallest !== undefined &&
      costOf(smallest.value) + extra > room
    )
      return tooLittle();
    let previous: string | undefined;
    for (const form of offer.forms) {
      const text = offer.text(form.value);
      // A degraded form that reads the same as the richer one is no step down.
      if (text === previous) continue;
      previous = text;
      const tokens = costOf(form.value) + extra;
      if (tokens <= room) {
        const tag = blockOf(offer.ref, offer.block);
        this.parts.add(tag);
        if (offer.group !== undefined) this.groups.add(`${tag}\u0000${offer.group}`);
        this.charge(offer.section, tokens);
        this.cite(offer.cites ?? [], offer.ref.part);
        this.recordSteps(offer, steps, form.level, room);
        this.select(offer.ref, form.level === 'raw' ? offer.rule : `${offer.rule} [${form.level}]`);
        return form;
      }
      steps.push(form.level);
    }
    this.full.add(offer.section);
    return tooLittle();
  }

  private omitOverBudget<T>(offer: Offer<T>, room: number): undefined {
    this.omit({
      omit: offer.ref,
      reason: 'over_budget',
      section: offer.section,
      detail: `needs more than the ${room} tokens left`,
    });
    return undefined;
  }

  private recordSteps<T>(offer: Offer<T>, tried: Level[], taken: Level, room: number): void {
    const path = [...tried, taken];
    const item = explainId(offer.ref);
    for (let index = 1; index < path.length; index += 1) {
      this.degradations.push({
        section: offer.section,
        action: `${item}: ${path[index - 1]}→${path[index]}`,
        reason: `over_budget: ${room} tokens left in ${offer.section}`,
      });
    }
  }

  private omit({ omit, reason, section, detail }: Omitted): void {
    const item = explainId(omit);
    this.omitted.push({ item, reason, section, detail });
    this.omissions.push({ item, reason });
  }

  /** Who said an event, as its citation names it: what a rendering shows on its lines (`spokenCitation`). */
  speakerOf(id: string): string | undefined {
    return citedSpeaker(this.citationsById.get(id));
  }

  /**
   * Adds evidence to the packet's citations (de-duplicated, first mention wins). A citation naming
   * who said the event replaces one that does not, unless a quote or message line of the event is
   * already placed: that line was charged without the name, which a rendering would then show.
   */
  private cite(citations: readonly Citation[], part?: ItemRef['part']): void {
    for (const citation of citations) {
      const known = this.citationsById.get(citation.id);
      if (
        known === undefined ||
        (known.summary === undefined && citation.summary !== undefined && !this.shownBy.has(citation.id))
      )
        this.citationsById.set(citation.id, citation);
      if (part === 'key_quotes' || part === 'conversation_window') this.shownBy.add(citation.id);
    }
  }
}
