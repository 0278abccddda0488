// The rules every JSON value obeys before a schema, a store or any recursive code reads it: nesting
// at most MAX_JSON_DEPTH deep, and text (values and property names alike) that is well-formed
// Unicode without U+0000 — which a store can hold and give back unchanged. One explicit-stack walk.

import type { ValidationIssue } from './errors.js';

/** How deep JSON may nest inside a request: deeper is refused before any recursive code sees it. */
export const MAX_JSON_DEPTH = 64;

/** At most this many text issues are listed for one value: the first names the field. */
const MAX_TEXT_ISSUES = 16;

/**
 * A field name from path segments.
 *
 * @example
 * fieldPath(['messages', '0', 'role']) // 'messages[0].role'
 */
export function fieldPath(parts: readonly string[]): string {
  return parts.reduce(
    (acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc === '' ? part : `${acc}.${part}`),
    '',
  );
}

/**
 * `field` (a path inside a value) named from the root of the input the value sits in at `base`, so
 * an issue is named as the caller wrote the input: `base` '' leaves the field as it is.
 *
 * @example
 * underPath('turns[1]', 'messages[0].role') // 'turns[1].messages[0].role'
 * underPath('turns[1]', '') // 'turns[1]'
 */
export function underPath(base: string, field: string): string {
  if (base === '') return field;
  if (field === '') return base;
  return field.startsWith('[') ? `${base}${field}` : `${base}.${field}`;
}

/**
 * The issues of a value that sits at `base` in a larger input, named from that input's root.
 *
 * @example
 * issuesUnder('line 3.event', [{ field: 'kind', rule: 'enum', message: '…' }])[0].field // 'line 3.event.kind'
 */
export function issuesUnder(base: string, issues: readonly ValidationIssue[]): ValidationIssue[] {
  return base === '' ? [...issues] : issues.map((issue) => ({ ...issue, field: underPath(base, issue.field) }));
}

// String.prototype.isWellFormed is in every Node this package supports (≥ 20) but not in the
// ES2023 library types it compiles with.
const wellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();

/** The position (from 1) of the first lone surrogate of `text`, and the surrogate as U+XXXX. */
function loneSurrogate(text: string): { at: number; unit: string } {
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    if (unit <= 0xdbff && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) index += 1;
    else return { at: index + 1, unit: `U+${unit.toString(16).toUpperCase()}` };
  }
  return { at: 0, unit: 'none' };
}

/** True when `text` breaks no text rule. */
const isClean = (text: string): boolean => wellFormed(text) && !text.includes('\0');

/**
 * `text` with its lone surrogates and U+0000 written as `\uXXXX`, so an error can name a property
 * whose name breaks the rule without carrying the broken text on.
 */
function printable(text: string): string {
  return text.replace(/\p{Cs}|\0/gu, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The broken text rule of one string (ill-formed Unicode, or U+0000), or undefined.
 *
 * @example
 * textIssue('u\ud800', 'scope.user_id') // { field: 'scope.user_id', rule: 'well_formed', … }
 */
export function textIssue(text: string, field: string, what = 'must be'): ValidationIssue | undefined {
  if (!wellFormed(text)) {
    const { at, unit } = loneSurrogate(text);
    return {
      field,
      rule: 'well_formed',
      message: `${what} well-formed Unicode: a lone surrogate ${unit} at character ${at}`,
    };
  }
  const nul = text.indexOf('\0');
  if (nul !== -1) return { field, rule: 'no_nul', message: `${what} free of U+0000: found at character ${nul + 1}` };
  return undefined;
}

/** An object still to walk: its depth and how it was reached (the path is built only for an issue). */
interface Pending {
  node: object;
  depth: number;
  name: string;
  parent: Pending | undefined;
}

/** The path of names from the root to `entry` (and on to `name`, when given). */
function pathOf(entry: Pending, name?: string): string[] {
  const path = name === undefined ? [] : [name];
  for (let at: Pending | undefined = entry; at?.parent !== undefined; at = at.parent) path.unshift(at.name);
  return path;
}

/** The depth issue of a path that reached the limit, naming the field the nesting starts in. */
function depthIssueAt(path: readonly string[], maxDepth: number): ValidationIssue {
  // Up to its second name (messages[0].metadata), not the whole path.
  const named = path.findIndex(
    (part, index) =>
      !/^\d+$/.test(part) && path.slice(0, index).filter((earlier) => !/^\d+$/.test(earlier)).length === 1,
  );
  return {
    field: fieldPath(path.slice(0, named === -1 ? 1 : named + 1)),
    rule: 'max_depth',
    message: `nests deeper than ${maxDepth} levels`,
  };
}

/**
 * The broken input rules of a JSON value: a max_depth issue alone when it nests deeper than
 * `maxDepth` (nothing else is read then), else one issue per string or property name that is not
 * well-formed Unicode (`well_formed`) or holds U+0000 (`no_nul`). Empty when the value is clean.
 *
 * @example
 * inputIssues({ scope: { user_id: 'u\ud800' } }) // [{ field: 'scope.user_id', rule: 'well_formed', … }]
 */
export function inputIssues(value: unknown, maxDepth = MAX_JSON_DEPTH): ValidationIssue[] {
  const text: ValidationIssue[] = [];
  const note = (issue: ValidationIssue | undefined) => {
    if (issue !== undefined && text.length < MAX_TEXT_ISSUES) text.push(issue);
  };
  if (typeof value === 'string') note(textIssue(value, ''));
  if (typeof value !== 'object' || value === null) return text;
  const pending: Pending[] = [{ node: value, depth: 0, name: '', parent: undefined }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.depth >= maxDepth) return [depthIssueAt(pathOf(next), maxDepth)];
    const children: Pending[] = [];
    for (const [key, child] of Object.entries(next.node)) {
      // Most text is clean and the walk sees all of it: field names are built only for an issue.
      const name = isClean(key) ? key : printable(key);
      if (name !== key) note(textIssue(key, fieldPath(pathOf(next, name)), 'is a property name that must be'));
      if (typeof child === 'string') {
        if (!isClean(child)) note(textIssue(child, fieldPath(pathOf(next, name))));
      } else if (typeof child === 'object' && child !== null)
        children.push({ node: child as object, depth: next.depth + 1, name, parent: next });
    }
    // Reversed onto the stack, so issues come in document order.
    for (let index = children.length - 1; index >= 0; index -= 1) pending.push(children[index]!);
  }
  return text;
}

/**
 * The max_depth issue of `value` when it nests deeper than `maxDepth`, or none.
 *
 * @example
 * depthIssues(JSON.parse(line)) // [] for an ordinary record
 */
export function depthIssues(value: unknown, maxDepth = MAX_JSON_DEPTH): ValidationIssue[] {
  return inputIssues(value, maxDepth).filter((issue) => issue.rule === 'max_depth');
}
