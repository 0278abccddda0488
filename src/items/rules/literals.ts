// A keyword prefilter for the rules' triggers and patterns, derived from the expressions themselves.
// Every match of an expression contains one of its literals (a word of a plain alternation, a
// required run of characters), so a sentence whose lower-cased text holds none of them cannot match
// and its regexp need not run. One pass of an automaton over every literal replaces one scan per
// expression: V8 tries each alternative of a long alternation at each position, which made the
// triggers the largest cost of a sentence. Literals are read lower-cased, so they serve expressions
// that ignore case and those written for the text as it was ("\bI work as"); an expression whose
// literals cannot be told is simply always run.

/** Where parsing a pattern's source is; `failed` when it met syntax this reader does not know. */
interface Cursor {
  source: string;
  at: number;
  failed: boolean;
}

type Element = readonly string[];

const DIGITS: Element = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
// Read in place with lastIndex (sticky): slicing the source at every group made parsing quadratic.
const BRACES = /\{(\d+)(?:,\d*)?\}/y;
const LOOKAROUND = /\?<?[=!]/y;
// Escapes that stand for one character of their own ("\.", "\-", "\/").
const IDENTITY_ESCAPE = /^[\^$\\.*+?()[\]{}|/\-'"]$/;
// Escapes of a class of characters: they match one, but no literal can stand for it.
const CLASS_ESCAPE = /^[sSwWD]$/;
// A Unicode property ("\p{Lu}", "\P{L}"), after its letter: one character, no literal.
const PROPERTY = /\{[\w=]+\}/y;
// A class of one letter in either case ("[Mm]y"): the lower-cased text holds the lower case.
const CASE_PAIR = /([A-Za-z])([A-Za-z])\]/y;

/**
 * A literal character as the lower-cased text holds it: an ASCII letter in lower case, a character
 * without case as it is, and nothing for a letter of another script with case (lower-casing Σ may
 * give σ or ς), which then ends the run.
 */
function folded(char: string): string | undefined {
  const lower = char.toLowerCase();
  if (char.charCodeAt(0) < 128 || lower === char.toUpperCase()) return lower;
  return undefined;
}

/** Gives up on the pattern: the rest of the source is skipped and nothing derived from it. */
function fail(cursor: Cursor): undefined {
  cursor.failed = true;
  cursor.at = cursor.source.length;
  return undefined;
}

/** A quantifier at the cursor: its minimum, or undefined when there is none. Consumes it. */
function quantifier(cursor: Cursor): number | undefined {
  const char = cursor.source[cursor.at];
  let min: number | undefined;
  if (char === '*' || char === '?') min = 0;
  else if (char === '+') min = 1;
  else if (char === '{') {
    BRACES.lastIndex = cursor.at;
    const found = BRACES.exec(cursor.source);
    if (found === null) return fail(cursor);
    cursor.at += found[0].length - 1;
    min = Number(found[1]);
  }
  if (min === undefined) return undefined;
  cursor.at += 1;
  if (cursor.source[cursor.at] === '?') cursor.at += 1;
  return min;
}

/**
 * A character class at the cursor (just after its `[`) and its `]`: the one letter it stands for in
 * lower case when it is a letter in both cases, else undefined (no literal).
 */
function characterClass(cursor: Cursor): string | undefined {
  CASE_PAIR.lastIndex = cursor.at;
  const pair = CASE_PAIR.exec(cursor.source);
  if (pair !== null && pair[1] !== pair[2] && pair[1]!.toLowerCase() === pair[2]!.toLowerCase()) {
    cursor.at += pair[0].length;
    return pair[1]!.toLowerCase();
  }
  skipClass(cursor);
  return undefined;
}

/** Skips a character class at the cursor (just after its `[`), and its `]`. */
function skipClass(cursor: Cursor): void {
  for (; cursor.at < cursor.source.length; cursor.at += 1) {
    const char = cursor.source[cursor.at];
    if (char === '\\') cursor.at += 1;
    else if (char === ']') {
      cursor.at += 1;
      return;
    }
  }
  fail(cursor);
}

/** Reads a group's body and its `)`: the body's literals, or undefined. */
function group(cursor: Cursor): Element | undefined {
  const literals = disjunction(cursor);
  if (cursor.source[cursor.at] !== ')') return fail(cursor);
  cursor.at += 1;
  return literals;
}

/** The most selective literal set of one alternative (its shortest literal longest), or undefined. */
function alternative(cursor: Cursor): Element | undefined {
  const elements: Element[] = [];
  let run = '';
  const flush = (): void => {
    if (run !== '') elements.push([run]);
    run = '';
  };
  while (cursor.at < cursor.source.length) {
    const char = cursor.source[cursor.at]!;
    if (char === '|' || char === ')') break;
    cursor.at += 1;
    // Assertions match no characters: the characters either side of them stay adjacent.
    if (char === '^' || char === '$') continue;
    let literal: string | undefined;
    let element: Element | undefined;
    if (char === '\\') {
      const escaped = cursor.source[cursor.at] ?? '';
      cursor.at += 1;
      if (escaped === 'b' || escaped === 'B') continue;
      if (escaped === 'd') element = DIGITS;
      else if (IDENTITY_ESCAPE.test(escaped)) literal = escaped;
      else if (escaped === 'p' || escaped === 'P') {
        PROPERTY.lastIndex = cursor.at;
        const property = PROPERTY.exec(cursor.source);
        if (property === null) return fail(cursor);
        cursor.at += property[0].length;
      } else if (!CLASS_ESCAPE.test(escaped)) return fail(cursor);
    } else if (char === '(') {
      LOOKAROUND.lastIndex = cursor.at;
      const lookaround = LOOKAROUND.exec(cursor.source);
      if (lookaround !== null) {
        cursor.at += lookaround[0].length;
        group(cursor);
        continue;
      }
      if (cursor.source.startsWith('?:', cursor.at)) cursor.at += 2;
      else if (cursor.source[cursor.at] === '?') return fail(cursor);
      element = group(cursor);
    } else if (char === '[') literal = characterClass(cursor);
    else if (char !== '.') {
      // Quantifier characters out of place, and halves of astral characters (a quantifier after one
      // applies to the whole character), are left to the regexp.
      if ('*+?{}]'.includes(char) || (char >= '\uD800' && char <= '\uDFFF')) return fail(cursor);
      literal = folded(char);
    }
    const min = quantifier(cursor);
    if (min === 0 || (literal === undefined && element === undefined)) {
      flush();
      continue;
    }
    if (literal !== undefined) {
      run += literal;
      // "h+" holds one h for sure, and what follows may be another.
      if (min !== undefined) flush();
      continue;
    }
    flush();
    if (element !== undefined) elements.push(element);
  }
  flush();
  let best: Element | undefined;
  let score = 0;
  for (const element of elements) {
    const shortest = Math.min(...element.map((literal) => literal.length));
    if (element.length > 0 && shortest > score) [best, score] = [element, shortest];
  }
  return best;
}

/** The literals of a disjunction: every alternative's, or undefined when one has none. */
function disjunction(cursor: Cursor): Element | undefined {
  const out: string[] = [];
  let known = true;
  for (;;) {
    const literals = alternative(cursor);
    if (literals === undefined) known = false;
    else out.push(...literals);
    if (cursor.source[cursor.at] !== '|') break;
    cursor.at += 1;
  }
  return known ? out : undefined;
}

/**
 * Literals, lower-cased, one of which the lower-cased text of every match of `pattern` contains, or
 * undefined when they cannot be told (a global or sticky pattern whose `test` has state, or syntax
 * this reader does not know). A pattern that ignores case is read as one that does not.
 *
 * @example
 * literalsOf(/\b(?:need|have|got) to\b|\bmust\b/) // ['need', 'have', 'got', 'must']
 * literalsOf(/\b[Mm]y name is\s+\p{Lu}/u)        // ['my name is']
 */
export function literalsOf(pattern: RegExp): string[] | undefined {
  if (/[gvy]/.test(pattern.flags)) return undefined;
  const cursor: Cursor = { source: pattern.source, at: 0, failed: false };
  const literals = disjunction(cursor);
  return !cursor.failed && cursor.at === cursor.source.length && literals !== undefined
    ? [...new Set(literals)]
    : undefined;
}

/** Which patterns of a LiteralIndex may match a text: a bit per pattern, 32 to a word. */
export type LiteralMask = Int32Array;

// Case-insensitive Unicode expressions match "ſ" (long s) for "s"; it lower-cases to itself.
const LONG_S = 0x17f;
const S = 0x73;

/**
 * Which of a list of patterns may match a text: `may(scan(lower), i)` is false only when pattern i
 * cannot match the text whose lower-cased form is `lower`. Patterns without derivable literals
 * always may.
 */
export class LiteralIndex {
  // An Aho-Corasick automaton over the literals, one step per character. ASCII steps are a table
  // (state × 128 + code). Other characters (Chinese) are sparse: a step from the start state, unless
  // a state on the fallback chain below the start has its own (state × 2^16 + code).
  private readonly ascii: Int32Array;
  private readonly wide = new Map<number, number>();
  private readonly fromStart = new Map<number, number>();
  /** Mask words per state: the patterns whose literal ends at the state, its suffixes' included. */
  private readonly out: Int32Array;
  private readonly always: Int32Array;
  private readonly words: number;

  constructor(patterns: readonly RegExp[]) {
    const words = Math.max(1, Math.ceil(patterns.length / 32));
    this.words = words;
    this.always = new Int32Array(words);
    const edges: Array<Map<number, number>> = [new Map()];
    const out: number[] = new Array<number>(words).fill(0);
    for (const [index, pattern] of patterns.entries()) {
      const [word, bit] = [index >> 5, 1 << (index & 31)];
      const literals = literalsOf(pattern);
      if (literals === undefined) {
        this.always[word]! |= bit;
        continue;
      }
      for (const literal of literals) {
        let state = 0;
        for (let at = 0; at < literal.length; at += 1) {
          const code = literal.charCodeAt(at);
          let next = edges[state]!.get(code);
          if (next === undefined) {
            next = edges.push(new Map()) - 1;
            out.push(...new Array<number>(words).fill(0));
            edges[state]!.set(code, next);
          }
          state = next;
        }
        out[state * words + word]! |= bit;
      }
    }
    const ascii = new Int32Array(edges.length * 128);
    const step = (state: number, code: number): number =>
      code < 128
        ? ascii[state * 128 + code]!
        : (this.wide.get(state * 0x10000 + code) ?? this.fromStart.get(code) ?? 0);
    for (const [code, next] of edges[0]!) if (code >= 128) this.fromStart.set(code, next);
    // Breadth first, so a state's fallback (a shorter state) is complete before the state itself.
    const fallback: number[] = [0];
    const wideCodes: number[][] = [[]];
    const queue = [0];
    for (let head = 0; head < queue.length; head += 1) {
      const state = queue[head]!;
      const back = fallback[state]!;
      if (state !== 0) {
        for (let word = 0; word < words; word += 1) out[state * words + word]! |= out[back * words + word]!;
        ascii.copyWithin(state * 128, back * 128, back * 128 + 128);
        wideCodes[state] = [...wideCodes[back]!];
        for (const code of wideCodes[back]!) this.wide.set(state * 0x10000 + code, step(back, code));
      }
      for (const [code, child] of edges[state]!) {
        fallback[child] = state === 0 ? 0 : step(back, code);
        queue.push(child);
        if (code < 128) ascii[state * 128 + code] = child;
        else if (state !== 0) {
          if (!this.wide.has(state * 0x10000 + code)) wideCodes[state]!.push(code);
          this.wide.set(state * 0x10000 + code, child);
        }
      }
    }
    this.ascii = ascii;
    this.out = Int32Array.from(out);
  }

  /** Whether pattern `index` may match the text whose scan is `mask`. */
  static may(mask: LiteralMask, index: number): boolean {
    return (mask[index >> 5]! & (1 << (index & 31))) !== 0;
  }

  /** Whether some pattern from `from` on may match the text whose scan is `mask`. */
  static anyFrom(mask: LiteralMask, from: number): boolean {
    for (let word = from >> 5; word < mask.length; word += 1) {
      const bits = word === from >> 5 ? mask[word]! & ~((1 << (from & 31)) - 1) : mask[word]!;
      if (bits !== 0) return true;
    }
    return false;
  }

  /** A bit per pattern, clear when the pattern cannot match the text whose lower-cased form is `lower`. */
  scan(lower: string): LiteralMask {
    const { ascii, out, words } = this;
    const mask = Int32Array.from(this.always);
    let state = 0;
    for (let at = 0; at < lower.length; at += 1) {
      let code = lower.charCodeAt(at);
      if (code === LONG_S) code = S;
      state =
        code < 128
          ? ascii[state * 128 + code]!
          : (this.wide.get(state * 0x10000 + code) ?? this.fromStart.get(code) ?? 0);
      if (words === 1) mask[0]! |= out[state]!;
      else for (let word = 0, base = state * words; word < words; word += 1) mask[word]! |= out[base + word]!;
    }
    return mask;
  }
}
