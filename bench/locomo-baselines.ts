// The baselines Engram is measured against on LoCoMo, at the same budgets and with the same
// tokenizer: the most recent turns that fit, plain BM25 over the raw turns (wink-bm25-text-search
// with wink's own text helpers), and the whole conversation. Each packs whole turns as
// `[D1:3] Speaker: text`, one a line.

import { createRequire } from 'node:module';

import type { Tokenizer } from '../src/index.js';
import type { LocomoTurn } from './locomo-data.js';

/** A baseline's context for one question: the turns it holds and its size in tokens. */
export interface PackedContext {
  dia_ids: Set<string>;
  tokens: number;
}

/** A turn as a baseline's prompt shows it. */
export function turnLine(turn: LocomoTurn): string {
  return `[${turn.dia_id}] ${turn.speaker}: ${turn.text}`;
}

/**
 * Packs whole turns into a budget with the tokenizer of Engram's packets; each turn's size is
 * counted once (the same turns are packed for every question and budget).
 */
export class TurnPacker {
  private readonly sizes = new WeakMap<LocomoTurn, number>();

  constructor(private readonly tokenizer: Tokenizer) {}

  /** Tokens of a turn's line. */
  size(turn: LocomoTurn): number {
    let tokens = this.sizes.get(turn);
    if (tokens === undefined) {
      tokens = this.tokenizer.count(turnLine(turn));
      this.sizes.set(turn, tokens);
    }
    return tokens;
  }

  /**
   * Turns taken in the given order, a turn that no longer fits skipped, until none fits; `tokens`
   * is the sum of the lines taken and a line break between each two.
   *
   * @example
   * packer.pack(turns.toReversed(), 1000).dia_ids.size // the latest turns that fit in 1,000 tokens
   */
  pack(ordered: readonly LocomoTurn[], budget: number): PackedContext {
    const dia_ids = new Set<string>();
    let used = 0;
    for (const turn of ordered) {
      const cost = this.size(turn) + (dia_ids.size === 0 ? 0 : 1);
      if (used + cost > budget) continue;
      dia_ids.add(turn.dia_id);
      used += cost;
    }
    return { dia_ids, tokens: used };
  }

  /** The whole conversation as one context (its size, for scale). */
  whole(turns: readonly LocomoTurn[]): PackedContext {
    return {
      dia_ids: new Set(turns.map((turn) => turn.dia_id)),
      tokens: this.tokenizer.count(turns.map(turnLine).join('\n')),
    };
  }
}

/** The part of wink-bm25-text-search's engine the baseline uses (the package ships no types). */
interface Bm25Engine {
  defineConfig(config: { fldWeights: Record<string, number> }): void;
  definePrepTasks(tasks: Array<(input: never) => unknown>): void;
  addDoc(doc: Record<string, string>, id: number): void;
  consolidate(): void;
  search(text: string, limit?: number): Array<[string, number]>;
}

interface WinkText {
  string: { lowerCase(text: string): string; tokenize0(text: string): string[] };
  tokens: { removeWords(tokens: string[]): string[]; stem(tokens: string[]): string[] };
}

const require = createRequire(import.meta.url);

/**
 * Plain BM25 (k1 1.2, b 0.75, wink's defaults) over one conversation's raw turns, with wink's
 * standard preparation: lower case, word tokens, English stop words removed, Porter stems.
 */
export class Bm25Baseline {
  private readonly engine: Bm25Engine;

  constructor(private readonly turns: readonly LocomoTurn[]) {
    const createEngine = require('wink-bm25-text-search') as () => Bm25Engine;
    const text = require('wink-nlp-utils') as WinkText;
    this.engine = createEngine();
    this.engine.defineConfig({ fldWeights: { text: 1 } });
    this.engine.definePrepTasks([
      text.string.lowerCase,
      text.string.tokenize0,
      text.tokens.removeWords,
      text.tokens.stem,
    ] as Array<(input: never) => unknown>);
    // wink consolidates no fewer than 3 documents; every LoCoMo conversation has hundreds.
    if (turns.length < 3) throw new RangeError('BM25 baseline: a conversation needs at least 3 turns');
    turns.forEach((turn, index) => this.engine.addDoc({ text: turn.text }, index));
    this.engine.consolidate();
  }

  /** The turns that match `query`, best first. */
  rank(query: string): LocomoTurn[] {
    return this.engine.search(query, this.turns.length).map(([id]) => this.turns[Number(id)]!);
  }
}
