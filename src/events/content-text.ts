// The text of an event: what full-text search indexes and the summarizer reads. Structured content
// (a tool's JSON output) is flattened to `key: value` lines, bounded so a huge payload stays cheap.

const MAX_TEXT_CHARS = 20_000;
const MAX_DEPTH = 8;

function flatten(value: unknown, path: string, depth: number, out: string[], budget: { left: number }): void {
  if (budget.left <= 0) return;
  if (value === null || value === undefined) return;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    const line = path === '' ? String(value) : `${path}: ${String(value)}`;
    out.push(line);
    budget.left -= line.length + 1;
    return;
  }
  if (depth >= MAX_DEPTH) return;
  if (Array.isArray(value)) {
    for (const item of value) flatten(item, path, depth + 1, out, budget);
    return;
  }
  if (typeof value === 'object') {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      flatten(child, key, depth + 1, out, budget);
    }
  }
}

/**
 * Readable text of event content: a string as it is, an object as `key: value` lines.
 *
 * @example
 * contentText({ city: 'Lisbon', temp_c: 21 }) // 'city: Lisbon\ntemp_c: 21'
 */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content.length > MAX_TEXT_CHARS ? content.slice(0, MAX_TEXT_CHARS) : content;
  const out: string[] = [];
  flatten(content, '', 0, out, { left: MAX_TEXT_CHARS });
  return out.join('\n');
}
