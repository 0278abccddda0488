// Reading a packet as text: the words it holds for each record it placed (a fact's line, a quote,
// an episode's summary), the record an explain line names, and a line diff of two rendered packets.

import type { MemoryPacket } from '../../src/client/index.js';

type Entry = Record<string, unknown>;

const entries = (value: unknown): Entry[] =>
  Array.isArray(value) ? value.filter((entry): entry is Entry => typeof entry === 'object' && entry !== null) : [];
const textOf = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** Where each part of a packet keeps its records: the list, the id field and the text field. */
const PARTS: ReadonlyArray<readonly [(packet: MemoryPacket) => unknown, string, string]> = [
  [(packet) => packet.long_term?.facts, 'fact_id', 'notes'],
  [(packet) => packet.long_term?.preferences, 'fact_id', 'notes'],
  [(packet) => packet.long_term?.procedures, 'procedure_id', 'content'],
  [(packet) => packet.long_term?.episodes, 'episode_id', 'summary'],
  [(packet) => packet.short_term?.key_quotes, 'evidence_id', 'quote'],
  [(packet) => packet.short_term?.conversation_window, 'evidence_id', 'content'],
  [(packet) => packet.insight?.hypotheses, 'id', 'statement'],
  [(packet) => packet.insight?.strategy_sketches, 'id', 'statement'],
  [(packet) => packet.insight?.patterns, 'id', 'statement'],
];

/**
 * The text a packet shows for each record it holds, by the record's id (a fact without notes shows
 * its value). The first text of a record wins.
 *
 * @example
 * packetTexts(packet).get('mem_…') // 'location: Lisbon'
 */
export function packetTexts(packet: MemoryPacket): Map<string, string> {
  const texts = new Map<string, string>();
  for (const [list, idField, textField] of PARTS) {
    for (const entry of entries(list(packet))) {
      const id = entry[idField];
      const text = entry[textField] ?? entry['value'];
      if (typeof id === 'string' && text !== undefined && !texts.has(id)) texts.set(id, textOf(text));
    }
  }
  for (const citation of packet.citations)
    if (citation.summary !== undefined && !texts.has(citation.id)) texts.set(citation.id, citation.summary);
  return texts;
}

/** One line of `explain.selected` or an omitted entry's `item`, read. */
export interface ExplainLine {
  section: string;
  /** The event or item it names (`evt_…`, `mem_…`), or null for a part such as the rolling summary. */
  id: string | null;
  rule: string;
}

/**
 * Reads an explain line: `facts:mem_…: ltm.always(preferences)` → section, id and rule.
 *
 * @example
 * explainLine('key_quotes:evt_01…#2: cue.hybrid(words #1)') // { section: 'key_quotes', id: 'evt_01…', rule: 'cue.hybrid(words #1)' }
 */
export function explainLine(line: string): ExplainLine {
  const cut = line.indexOf(': ');
  const head = cut === -1 ? line : line.slice(0, cut);
  const rule = cut === -1 ? '' : line.slice(cut + 2);
  const colon = head.indexOf(':');
  const section = colon === -1 ? head : head.slice(0, colon);
  const named = colon === -1 ? '' : head.slice(colon + 1).split('#')[0]!;
  return { section, id: /^(evt|mem)_[0-9A-Z]{26}$/.test(named) ? named : null, rule };
}

/** A line of a diff: in both, only in the second text (came), or only in the first (went). */
export interface DiffLine {
  kind: 'same' | 'came' | 'went';
  text: string;
}

/**
 * The lines of two texts, each marked as kept, come (only in `after`) or gone (only in `before`),
 * by their longest common subsequence.
 *
 * @example
 * lineDiff('a\nb', 'a\nc') // [same a, went b, came c]
 */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1)
      lengths[i]![j] = a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ kind: 'same', text: a[i]! });
      i += 1;
      j += 1;
    } else if (j < b.length && (i === a.length || lengths[i]![j + 1]! >= lengths[i + 1]![j]!)) {
      lines.push({ kind: 'came', text: b[j]! });
      j += 1;
    } else {
      lines.push({ kind: 'went', text: a[i]! });
      i += 1;
    }
  }
  return lines;
}
