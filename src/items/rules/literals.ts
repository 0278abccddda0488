// A keyword prefilter for the rules' triggers, derived from the triggers themselves. Every match of
// a trigger contains one of its literals (a word of a plain alternation, a required run of
// characters), so a sentence without any of them cannot match and its regexp need not run. One
// pass of an automaton over every literal replaces one scan per trigger: V8 tries each alternative
// of a long alternation at each position, which made the triggers the largest cost of a sentence.
// A trigger whose literals cannot be told (it ignores case, say) is simply always run.

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
      else if (!CLASS_ESCAPE.test(escaped)) return fail(cursor);
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
    } else if (char === '[') skipClass(cursor);
    else if (char !== '.') {
      // Quantifier characters out of place, and halves of astral characters (a quantifier after one
      // applies to the whole character), are left to the regexp.
      if ('*+?{}]'.includes(char) || (char >= '\uD800' && char <= '\uDFFF')) return fail(cursor);
      literal = char;
    }
    const min = quantifier(cursor);
    if (min === 0) {
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
 * Literals one of which every match of `pattern` contains, or undefined when they cannot be told
 * (a pattern that ignores case, a global or sticky one whose `test` has state, or syntax this
 * reader does not know).
 *
 * @example
 * literalsOf(/\b(?:need|have|got) to\b|\bmust\b/) // ['need', 'have', 'got', 'must']
 */
export function literalsOf(pattern: RegExp): string[] | undefined {
  if (/[givy]/.test(pattern.flags)) return undefined;
  const cursor: Cursor = { source: pattern.source, at: 0, failed: false };
  const literals = disjunction(cursor);
  return !cursor.failed && cursor.at === cursor.source.length && literals !== undefined
    ? [...new Set(literals)]
    : undefined;
}

/**
 * Which of a list of patterns may match a text: `may(scan(text), i)` is false only when pattern i
 * cannot match it. Patterns without derivable literals, and those after the 32nd, always may.
 */
export class LiteralIndex {
  // An Aho-Corasick automaton over the literals, one step per character. ASCII steps are a table
  // (state × 128 + code). Other characters (Chinese) are sparse: a step from the start state, unless
  // a state on the fallback chain below the start has its own (state × 2^16 + code).
  private readonly ascii: Int32Array;
  private readonly wide = new Map<number, number>();
  private readonly fromStart = new Map<number, number>();
  /** The patterns whose literal ends at a state, its suffixes' included. */
  private readonly out: Int32Array;
  private readonly always: number = 0;

  constructor(patterns: readonly RegExp[]) {
    const edges: Array<Map<number, number>> = [new Map()];
    const out: number[] = [0];
    for (const [index, pattern] of patterns.slice(0, 32).entries()) {
      const literals = literalsOf(pattern);
      if (literals === undefined) {
        this.always |= 1 << index;
        continue;
      }
      for (const literal of literals) {
        let state = 0;
        for (let at = 0; at < literal.length; at += 1) {
          const code = literal.charCodeAt(at);
          let next = edges[state]!.get(code);
          if (next === undefined) {
            next = edges.push(new Map()) - 1;
            out.push(0);
            edges[state]!.set(code, next);
          }
          state = next;
        }
        out[state] = out[state]! | (1 << index);
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
        out[state] = out[state]! | out[back]!;
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
  static may(mask: number, index: number): boolean {
    return index >= 32 || (mask & (1 << index)) !== 0;
  }

  /** A bit per pattern, clear when the pattern cannot match `text`. */
  scan(text: string): number {
    const { ascii, out } = this;
    let mask = this.always;
    let state = 0;
    for (let at = 0; at < text.length; at += 1) {
      const code = text.charCodeAt(at);
      state =
        code < 128
          ? ascii[state * 128 + code]!
          : (this.wide.get(state * 0x10000 + code) ?? this.fromStart.get(code) ?? 0);
      mask |= out[state]!;
    }
    return mask;
  }
}
