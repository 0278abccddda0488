// Tool results (MemoryTypes v0.1 §5: must write tool results that produce artifacts or change
// state). A successful result whose tool name or output says it created, updated, sent, booked,
// deployed or merged something becomes a must `events` item `event:<tool_name>:<date>:<slug>`,
// with its artifacts (ids, URLs, paths) as evidence and as entity candidates. Read-only results
// (search hits, listings, fetched pages) produce nothing.

import type { EvidenceRef, ExtractionEvent, ItemCandidate } from '../../spec/items.js';
import { makeKey } from '../keys.js';
import { eventDate } from './dates.js';
import { findRefs, refCandidates, refEvidence, refKey, type Ref } from './entities.js';
import type { ExtractionMemory, Rule } from './rule.js';
import { emit } from './rule.js';
import { shorten } from './text.js';

const STATE_VERB =
  /\b(created|updated|deleted|removed|sent|booked|deployed|merged|published|uploaded|saved|scheduled|cancell?ed|closed|opened|committed|pushed|added|renamed|moved|wrote|written|released|posted|installed|paid|ordered|registered|submitted|approved|archived|assigned|invited|reserved|transferred|refunded|edited|modified|replied|inserted|appended|generated|exported|tagged|labell?ed|reverted|restarted|provisioned)\b/i;
const NAME_VERB =
  /(?:^|_)(create|update|delete|remove|send|book|deploy|merge|publish|upload|write|save|schedule|cancel|close|open|commit|push|add|rename|move|release|post|install|pay|order|register|submit|approve|archive|assign|invite|reserve|transfer|refund|edit|modify|reply|insert|append|put|patch|generate|export|tag|label|revert|restart|provision|set)(?:_|$)/;
const READ_ONLY_NAME =
  /^(?:search|get|list|read|fetch|query|find|lookup|look_up|view|browse|retrieve|show|describe|inspect|count|peek|download|check|preview|summari[sz]e)(?:_|$)|(?:^|_)(?:search|lookup)(?:_|$)/;
const FAILURE =
  /^\s*(?:error|failed|failure|exception|traceback)\b|\b(?:permission denied|not found|unauthori[sz]ed|forbidden)\b/i;
const ID_TEXT = /(?<![\w/])#(\d{1,9})\b|\b([A-Z][A-Z0-9]{1,9}-\d{1,7})\b|\b(?:id|ID|Id)\s*[:=]\s*["']?([\w.-]{2,64})/g;
const ID_FIELD =
  /^(?:id|.*_id|number|key|sha|ref|slug|name|title|path|file|filename|file_path|url|html_url|web_url|link|href)$/i;

export const TOOL_RULE: Rule = {
  name: 'tool.state_change',
  languages: ['en', 'zh'],
  roles: ['tool'],
  type: 'events',
  confidence: 0.9,
  gate: 'must',
  trigger: /./,
  match: () => [],
};

interface Artifact {
  kind: 'id' | 'url' | 'file' | 'repo';
  ref: string;
}

/** snake_case of a tool name ("createIssue", "github.create-issue" → "create_issue", "github_create_issue"). */
function snake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_');
}

/** Scalar fields of the tool's output that name what it made: ids, numbers, URLs, paths (two levels deep). */
function dataFields(
  data: Record<string, unknown> | undefined,
  depth = 0,
  out: Array<[string, string]> = [],
): Array<[string, string]> {
  if (data === undefined || depth > 1) return out;
  for (const [field, value] of Object.entries(data)) {
    if ((typeof value === 'string' || typeof value === 'number') && ID_FIELD.test(field) && String(value).length <= 300)
      out.push([field.toLowerCase(), String(value)]);
    else if (typeof value === 'object' && value !== null && !Array.isArray(value))
      dataFields(value as Record<string, unknown>, depth + 1, out);
    if (out.length >= 12) break;
  }
  return out;
}

function artifactsOf(text: string, fields: ReadonlyArray<[string, string]>, refs: readonly Ref[]): Artifact[] {
  const out: Artifact[] = [];
  const add = (artifact: Artifact): void => {
    if (out.length < 8 && !out.some((known) => known.ref === artifact.ref)) out.push(artifact);
  };
  for (const [field, value] of fields)
    if (field === 'id' || field.endsWith('_id') || field === 'number' || field === 'key' || field === 'sha')
      add({ kind: 'id', ref: value });
  for (const found of text.matchAll(ID_TEXT))
    add({ kind: 'id', ref: found[1] === undefined ? (found[2] ?? found[3]!) : `#${found[1]}` });
  for (const ref of refs) add({ kind: ref.kind, ref: ref.kind === 'repo' ? ref.name : ref.raw });
  return out;
}

/** True when a tool result says it changed something; false for failures and read-only tools. */
export function changesState(event: ExtractionEvent): boolean {
  if (event.tool_status === 'error' || FAILURE.test(event.text)) return false;
  const name = snake(event.tool_name ?? '');
  if (READ_ONLY_NAME.test(name)) return false;
  if (NAME_VERB.test(name)) return true;
  if (STATE_VERB.test(event.text)) return true;
  const status = event.data?.['status'] ?? event.data?.['action'] ?? event.data?.['result'];
  return typeof status === 'string' && STATE_VERB.test(status);
}

/**
 * The candidates of one tool result: an event item for a state change, plus entity candidates for
 * the URLs, repositories and files it names.
 *
 * @example
 * toolCandidates({ kind: 'tool_result', role: 'tool', tool_name: 'github.create_issue', text: 'Created issue #12', … }, memory)
 * // [{ key: 'event:github_create_issue:2026-02-20:created_12', gate: 'must', … }]
 */
export function toolCandidates(event: ExtractionEvent, memory: ExtractionMemory): ItemCandidate[] {
  if (!changesState(event)) return [];
  const toolName = event.tool_name ?? 'tool';
  const date = eventDate(event.ts);
  // Structured output is usually flattened into the text already; fields that are not get searched too.
  const fields = dataFields(event.data);
  const missing = fields
    .filter(([, value]) => !event.text.includes(value))
    .map(([field, value]) => `${field}: ${value}`);
  const refs = findRefs(missing.length === 0 ? event.text : `${event.text}\n${missing.join('\n')}`);
  const artifacts = artifactsOf(event.text, fields, refs);
  const verb = STATE_VERB.exec(event.text)?.[1]?.toLowerCase() ?? NAME_VERB.exec(snake(toolName))?.[1] ?? 'changed';
  const primary = artifacts.find((artifact) => artifact.kind === 'id') ?? artifacts[0];
  const firstLine = event.text.split('\n', 1)[0]!.trim();
  const subject =
    primary === undefined
      ? firstLine.split(/\s+/).slice(0, 5).join(' ')
      : primary.kind === 'id'
        ? primary.ref
        : (primary.ref.split('/').filter(Boolean).pop() ?? primary.ref);
  const source = { event, start: 0, end: event.text.length };
  const entityCandidates = refCandidates(source, refs, memory, 0, event.text.length);
  const moreEvidence = refs
    .map(refEvidence)
    .filter((evidence): evidence is EvidenceRef => evidence !== undefined)
    .slice(0, 8);
  // A flattened object's first line is one field ("id: 4012"); a readable title names the tool instead.
  const named = ['title', 'name', 'subject', 'summary']
    .map((field) => event.data?.[field])
    .find((value): value is string => typeof value === 'string' && value !== '');
  const plain = firstLine !== '' && !/^[\w.-]+:\s/.test(firstLine);
  const title = shorten(plain ? firstLine : `${toolName}: ${verb} ${named ?? subject}`, 140);
  const value: Record<string, unknown> = {
    scope: toolName,
    date,
    title,
    tool: toolName,
    status: 'ok',
    impact: verb,
    artifacts,
  };
  const eventCandidate = emit(source, TOOL_RULE, {
    key: makeKey('events', [toolName, date, `${verb} ${subject}`]),
    value,
    moreEvidence,
    entities: refs.map(refKey),
  });
  return [eventCandidate, ...entityCandidates];
}
