// The order in which the local model's thread embeds what it was given: forward passes of at most
// `passTokens` tokens (texts × the longest one's tokens, since the model pads every text of a pass
// to the longest), interactive calls before background ones. A pass of background work is short,
// so an interactive call that arrives meanwhile waits for one pass at most, not for a whole backlog.

import type { EmbeddingPriority } from '../../spec/providers.js';

/**
 * One call's texts as the thread queues them.
 *
 * @example
 * { id: 3, lane: 'interactive', texts: ['what tone do I like?'] }
 */
export interface QueuedCall {
  id: number;
  lane: EmbeddingPriority;
  texts: string[];
}

/**
 * One text of a pass: its call, its place in the call, and the text.
 *
 * @example
 * { id: 3, index: 0, text: 'what tone do I like?' }
 */
export interface PassEntry {
  id: number;
  index: number;
  text: string;
}

interface Waiting {
  call: QueuedCall;
  /** The next text of the call not yet in a pass. */
  next: number;
  /** That text's tokens, once counted (a text that did not fit one pass is counted once, not again for the next). */
  tokens: number | undefined;
}

const LANE_ORDER: readonly EmbeddingPriority[] = ['interactive', 'background'];

/**
 * Calls waiting for the model, handed out pass by pass.
 *
 * @example
 * const queue = new PassQueue(256, (text) => tokenizer.encode(text).length);
 * queue.add({ id: 1, lane: 'background', texts });
 * for (let pass = queue.next(); pass.length > 0; pass = queue.next()) await run(pass);
 */
export class PassQueue {
  private readonly lanes: Record<EmbeddingPriority, Waiting[]> = { interactive: [], background: [] };

  /**
   * @param passTokens most tokens in one pass (a single text longer than that still gets a pass of its own)
   * @param tokensOf the tokens the model reads of a text
   */
  constructor(
    private readonly passTokens: number,
    private readonly tokensOf: (text: string) => number,
  ) {}

  add(call: QueuedCall): void {
    if (call.texts.length > 0) this.lanes[call.lane].push({ call, next: 0, tokens: undefined });
  }

  /** Drops what is left of a call (its caller stopped waiting, or an earlier pass of it failed). */
  cancel(id: number): void {
    for (const lane of LANE_ORDER) {
      const index = this.lanes[lane].findIndex((waiting) => waiting.call.id === id);
      if (index >= 0) this.lanes[lane].splice(index, 1);
    }
  }

  /** Texts still waiting for a pass. */
  get size(): number {
    return LANE_ORDER.reduce(
      (sum, lane) =>
        sum + this.lanes[lane].reduce((texts, waiting) => texts + waiting.call.texts.length - waiting.next, 0),
      0,
    );
  }

  /** The next pass: texts of the first lane that has any, in call order, within the token bound; [] when nothing waits. */
  next(): PassEntry[] {
    const lane = LANE_ORDER.map((name) => this.lanes[name]).find((waiting) => waiting.length > 0);
    const pass: PassEntry[] = [];
    let longest = 0;
    while (lane !== undefined && lane.length > 0) {
      const head = lane[0]!;
      const text = head.call.texts[head.next]!;
      head.tokens ??= this.tokensOf(text);
      const widest = Math.max(longest, head.tokens);
      if (pass.length > 0 && widest * (pass.length + 1) > this.passTokens) break;
      pass.push({ id: head.call.id, index: head.next, text });
      longest = widest;
      head.next += 1;
      head.tokens = undefined;
      if (head.next === head.call.texts.length) lane.shift();
    }
    return pass;
  }
}
