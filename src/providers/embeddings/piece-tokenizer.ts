// The SentencePiece unigram tokenizer of the Universal Sentence Encoder lite's vocabulary, written
// to give the same token ids as the tokenizer inside @energetic-ai/embeddings (tested on the same
// texts) without loading TensorFlow.js. A text is split at spaces and each word's ids are cached.

/** Id of the unknown piece: a character that starts no piece of the vocabulary. */
export const UNKNOWN_PIECE = 0;

/** Ids below this are reserved (`<unk>`, `<s>`, `</s>`, three spares); the text never yields them but as unknown. */
const RESERVED_PIECES = 6;

/** Marks the start of a word inside pieces (U+2581), as SentencePiece writes a space. */
const WORD_START = '\u2581';

/** Words whose ids are kept; at that many the cache starts again (conversation reuses a few thousand words). */
const CACHED_WORDS = 50_000;

/** A word's ids and the sum of their scores. */
interface WordSplit {
  ids: readonly number[];
  score: number;
}

/** One trie node: children by code point, and the piece that ends here (-1 when none). */
interface TrieNode {
  children: Map<number, TrieNode>;
  piece: number;
}

/**
 * Token ids of texts under a SentencePiece unigram vocabulary: the best-scoring split of each word
 * (ties go to the later start, then the longer piece, as in the model's own tokenizer), a character
 * that starts no piece becoming {@link UNKNOWN_PIECE}, consecutive unknowns merged into one.
 *
 * @example
 * const tokenizer = new PieceTokenizer(pieces, scores);
 * tokenizer.encode('I adopted a puppy') // [16, 6139, 11, 6430]: ▁I ▁adopted ▁a ▁puppy in the model's vocabulary
 */
export class PieceTokenizer {
  private readonly root: TrieNode = { children: new Map(), piece: -1 };
  private readonly lengths: Uint8Array;
  /** Splits of words after the text's first non-zero score, and of words before it. */
  private readonly cache = new Map<string, WordSplit>();
  private readonly zeroCache = new Map<string, WordSplit>();

  constructor(
    pieces: readonly string[],
    private readonly scores: Float64Array,
  ) {
    this.lengths = new Uint8Array(pieces.length);
    for (let id = RESERVED_PIECES; id < pieces.length; id += 1) this.insert(pieces[id]!, id);
  }

  /**
   * The ids the model's tokenizer gives `text`: NFKC-normalised, each space a word start.
   *
   * @example
   * tokenizer.encode('') // []
   */
  encode(text: string): number[] {
    const normalised = text.normalize('NFKC');
    const ids: number[] = [];
    if (normalised.length === 0) return ids;
    let previousUnknown = false;
    // While every piece so far scored exactly 0 the model's tokenizer takes 0 for "no split yet" (see split).
    let atZero = true;
    for (const word of normalised.split(' ')) {
      const split = this.word(word, atZero);
      atZero = atZero && split.score === 0;
      for (const id of split.ids) {
        // The model's tokenizer merges a run of unknown characters into one, across words too.
        if (!(previousUnknown && id === UNKNOWN_PIECE)) ids.push(id);
        previousUnknown = id === UNKNOWN_PIECE;
      }
    }
    return ids;
  }

  private insert(piece: string, id: number): void {
    let node = this.root;
    let length = 0;
    for (const symbol of piece) {
      const code = symbol.codePointAt(0)!;
      let child = node.children.get(code);
      if (child === undefined) {
        child = { children: new Map(), piece: -1 };
        node.children.set(code, child);
      }
      node = child;
      length += 1;
    }
    node.piece = id;
    this.lengths[id] = length;
  }

  /** The split of one space-free word, read from the cache or computed and cached. */
  private word(word: string, atZero: boolean): WordSplit {
    const cache = atZero ? this.zeroCache : this.cache;
    let split = cache.get(word);
    if (split === undefined) {
      split = this.split(
        Array.from(WORD_START + word, (symbol) => symbol.codePointAt(0)!),
        atZero,
      );
      if (cache.size >= CACHED_WORDS) cache.clear();
      cache.set(word, split);
    }
    return split;
  }

  /**
   * Viterbi over the word's code points: best[end] is the best score of a split of symbols[0, end).
   * The model's tokenizer runs it over the whole text and reads a best score of exactly 0 as "not
   * reached yet", so a later, worse split replaces one that scored 0. Scores are never positive,
   * so that happens only while the text so far scored exactly 0 (`atZero`): then the same rule
   * applies here; after, a plain Viterbi gives what the whole-text run gives.
   */
  private split(symbols: readonly number[], atZero: boolean): WordSplit {
    const count = symbols.length;
    const best = new Float64Array(count + 1).fill(atZero ? 0 : Number.NEGATIVE_INFINITY);
    best[0] = 0;
    const last = new Int32Array(count + 1);
    const relax = (end: number, score: number, piece: number) => {
      if ((atZero && best[end] === 0) || score >= best[end]!) {
        best[end] = score;
        last[end] = piece;
      }
    };
    for (let start = 0; start < count; start += 1) {
      let found = false;
      let node = this.root.children.get(symbols[start]!);
      for (let end = start + 1; node !== undefined; end += 1) {
        if (node.piece >= 0) {
          relax(end, this.scores[node.piece]! + best[start]!, node.piece);
          found = true;
        }
        node = end < count ? node.children.get(symbols[end]!) : undefined;
      }
      // No piece starts here: one unknown character, which the model's tokenizer scores 0.
      if (!found) relax(start + 1, best[start]!, UNKNOWN_PIECE);
    }
    const ids: number[] = [];
    for (let end = count; end > 0; end -= this.lengths[last[end]!] || 1) ids.push(last[end]!);
    return { ids: ids.reverse(), score: best[count]! };
  }
}
