// RELIABILITY.md from the figures the reliability tests record under reliability-results/: one
// section per kind of promise (bad input, crashes, concurrency, isolation, secrets, erasure, load),
// a known layout for each known part and a plain table of its figures for any other.

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

import type { BoundaryTally } from './results.js';

/** One part's recorded figures (the JSON recordOutcome writes). */
export interface PartRecord {
  part: string;
  recorded_at: string;
  long: boolean;
  figures: unknown;
}

/** What each known part tried, for the reader. */
const PARTS: Record<string, { section: string; title: string; tried: string }> = {
  library: {
    section: 'Bad input',
    title: 'Library calls',
    tried:
      'every public call with one field at a time replaced by hostile values (random Unicode, lone surrogates, huge strings, 5,000-deep JSON, `__proto__`/`constructor` keys, invalid ids, wrong types, FTS and SQL metacharacters)',
  },
  http: {
    section: 'Bad input',
    title: 'HTTP routes',
    tried: 'the same hostile fields sent over HTTP, plus malformed JSON, wrong content types and bodies past the limit',
  },
  mcp: {
    section: 'Bad input',
    title: 'MCP tools',
    tried: 'the same hostile fields as MCP tool arguments over the streamable HTTP transport',
  },
  'import-cli': {
    section: 'Bad input',
    title: 'Import files and the command line',
    tried:
      'exports with one hostile field, truncated lines, wrong versions and deep JSON; hostile command-line arguments',
  },
  'huge-lines': {
    section: 'Bad input',
    title: 'Huge import lines',
    tried:
      'single import lines of 64, 300 and 700 MiB (and 1,023 MiB, nearly the whole 1 GiB import limit, in the long form) streamed to a real `engram serve`, its resident memory read from /proc before, at its peak and after',
  },
  rebinding: {
    section: 'Bad input',
    title: 'Forged Host and Origin (DNS rebinding)',
    tried:
      'every kind of route (export, commits, compose, keys, /mcp, metrics, the OpenAPI document, the inspector) called with Host headers and Origins a rebound page could send (other names and ports, user info, no Host, `Origin: null`, https on the loopback port), without auth and with a valid admin key',
  },
  'auth-flood': {
    section: 'Bad input',
    title: 'Floods of bad keys and of batched calls',
    tried:
      "hundreds of failed authentications from one address (guessed keys, no key, other schemes, oversized keys) with a working key mixed in, and /mcp JSON-RPC batches sent one after another and all at once against a key's rate limit",
  },
  'edge-timestamps': {
    section: 'Bad input',
    title: 'Edge timestamps',
    tried:
      'leap seconds, the first and last instants of the years 0000–9999 pushed past them by an offset, impossible days and times, and odd valid spellings, sent to commits, compose (`as_of`, cue time range), event and item search, remember, insights, import lines, HTTP and `--as-of`, each answer checked against an independent oracle; then the export imported into fresh SQLite and PostgreSQL stores',
  },
  'ill-formed-unicode': {
    section: 'Bad input',
    title: 'Ill-formed Unicode and U+0000',
    tried:
      'a lone surrogate or a NUL at a random place in ids, content, tool output, metadata values and property names, tags, queries, cues and patches, through the library and over HTTP on both stores; random well-formed text (astral, control, noncharacter) sent and read back',
  },
  'read-key-growth': {
    section: 'Bad input',
    title: 'Storage growth from a read key',
    tried:
      'composes with a read key carrying unknown cues of up to ~900 KB, nested and oversize cue fields, and the largest valid cues with budgets up to 1,000,000 tokens over a store with history, each stored build measured',
  },
  'llm-output': {
    section: 'Bad input',
    title: 'LLM output',
    tried:
      'malformed, partial, oversized and wrongly typed answers from a loopback OpenAI-compatible server to extraction and reflection',
  },
  concurrency: {
    section: 'Concurrency',
    title: 'Writers in several processes',
    tried:
      'processes patching one working state at the same version, committing the same turn_id, and composing while others commit',
  },
  'crash-sqlite': {
    section: 'Crashes',
    title: 'SIGKILL during commits (SQLite)',
    tried: 'a process committing turns killed with SIGKILL at chosen points, the file reopened',
  },
  'crash-loops': {
    section: 'Crashes',
    title: 'SIGKILL of the server',
    tried: '`engram serve` under load killed with SIGKILL again and again, on both stores',
  },
  'interrupted-imports': {
    section: 'Crashes',
    title: 'Interrupted imports',
    tried:
      '`engram import` killed with SIGKILL at random moments on both stores, then the same command run again; an imported turn committed again; an import streamed to a server for 34 s against a 1 s request limit',
  },
  'tenancy-http': {
    section: 'Tenant isolation',
    title: 'HTTP routes across tenants',
    tried:
      "every route of the API called with one tenant's key and another tenant's user and record ids (export, replay and job results included), then naming the other tenant",
  },
  'tenancy-mcp': {
    section: 'Tenant isolation',
    title: 'MCP tools across tenants',
    tried: "every MCP tool called with one tenant's key and another tenant's ids, then naming the other tenant",
  },
  secrets: {
    section: 'Secrets',
    title: 'A canary in secret events',
    tried:
      'a canary in the content, speaker, tool name, call id, tags, metadata, snapshot reference and resonance links of secret events; packets of every purpose and their prompt text, searches, lists, single event reads, exports, snapshots, candidates, HTTP and MCP answers of a running server, its debug logs and every request to the embedding and LLM provider checked for it',
  },
  'inspector-wire': {
    section: 'Secrets',
    title: 'The web inspector on the wire',
    tried:
      'every response the browser received while the inspector was driven through all its views in headless Chromium, and the rendered page, checked for the canary',
  },
  'private-data-flow': {
    section: 'Secrets',
    title: 'Private events and another user of the agent',
    tried:
      "one user's private messages and tool results reflected on over HTTP, every candidate approved (and with edits asking for the agent and tenant level), a strategy promoted to a procedure; another user of the same agent composing packets of every purpose, listing and searching items, on both stores",
  },
  erasure: {
    section: 'Erasure',
    title: 'Erasing a user, and the copies others keep',
    tried:
      "on both stores, a user's events, items with history, chunks, vectors, candidates, insights, snapshots, builds and queued jobs erased, and another user's packets that quoted the procedure the user taught the agent checked (their builds, the export, replays); the SQLite file compacted and searched for the canary bytes and the user's id; every PostgreSQL table searched, then the data files of its tables, indexes, TOAST and the statistics catalog searched for the canary bytes after compact (VACUUM FULL) and a CHECKPOINT",
  },
  load: {
    section: 'Load and soak',
    title: 'Concurrent clients',
    tried:
      'concurrent clients committing, composing and searching against a real `engram serve`, resident memory sampled',
  },
  'embedding-stalls': {
    section: 'Load and soak',
    title: 'Event-loop stalls under embedding load',
    tried:
      'a real `engram serve` (SQLite, local embeddings, the worker in the same process) answering /healthz and an event listing from 4 clients, idle and then while its worker embeds 32 turns of 20,000 characters and 100 short ones; a search whose query is embedded on the request path measured beside them; the p99 under load held to 2× the idle p99 or 50 ms',
  },
};

const SECTION_ORDER = [
  'Bad input',
  'Crashes',
  'Concurrency',
  'Tenant isolation',
  'Secrets',
  'Erasure',
  'Load and soak',
];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isTally = (value: unknown): value is BoundaryTally =>
  isObject(value) &&
  typeof value['cases'] === 'number' &&
  typeof value['accepted'] === 'number' &&
  typeof value['rejected'] === 'number';

/** Every recorded part, by name. */
export function readResults(folder: string): PartRecord[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(folder, name), 'utf8')) as PartRecord);
}

function cell(value: unknown): string {
  if (typeof value === 'number')
    return Number.isInteger(value) ? value.toLocaleString('en-US') : String(Number(value.toFixed(3)));
  if (typeof value === 'string') return value.replaceAll('|', '\\|');
  return JSON.stringify(value).replaceAll('|', '\\|');
}

/** Leaves of nested figures as [path, value] rows. */
function leaves(value: unknown, path: string[] = []): Array<[string, unknown]> {
  if (isObject(value)) return Object.entries(value).flatMap(([key, child]) => leaves(child, [...path, key]));
  return [[path.join(' · '), value]];
}

/** Figures that count attempts (kills, requests, turns, surfaces…), summed over stores. */
const ATTEMPTS =
  /(^|_)(kills|requests|turns_acknowledged|calls|updates|packets_composed|responses_checked|routes|tables_checked|files_checked|processes)$/;
/** Figures that count failures: each must be 0. */
const FAILURES =
  /missing|half_written|errors|leaked|store_changed|lookups_after_limit|good_key_refused|calls_past_limit|canary_found|invalid_packets|won_twice|mentioning_erased_user|after_compaction|records_of_b_seen|records_of_b_changed|refusals_that_wrote|builds_over_bound|over_allowed|unrefused|rss_over_budget|duplicated|recommits_that_wrote|imports_cut/;

function sumBy(figures: unknown, pattern: RegExp): Map<string, number> {
  const sums = new Map<string, number>();
  // Per-operation breakdowns (latency · commit · requests) repeat their totals: left out.
  for (const [path, value] of leaves(figures).filter(([path]) => !path.includes('latency'))) {
    const name = path.split(' · ').at(-1)!;
    if (typeof value === 'number' && pattern.test(name)) sums.set(name, (sums.get(name) ?? 0) + value);
  }
  return sums;
}

/** The attempts of a part, in words. */
function tried(figures: unknown): string {
  const sums = [...sumBy(figures, ATTEMPTS)].map(([name, total]) => `${cell(total)} ${name.replaceAll('_', ' ')}`);
  const surfaces = leaves(figures).filter(
    ([path, value]) => path.startsWith('surfaces · ') && typeof value === 'number',
  );
  if (surfaces.length > 0)
    sums.push(
      `${cell(surfaces.reduce((sum, [, value]) => sum + (value as number), 0))} outputs on ${surfaces.length} surfaces`,
    );
  return sums.length === 0 ? `${leaves(figures).length} figures` : sums.join(', ');
}

/** The failure counts of a part (all zero when it held). */
function held(figures: unknown, tallies: boolean): string {
  if (tallies) return 'every case a typed error or handled; no partial write';
  const sums = [...sumBy(figures, FAILURES)].map(([name, total]) => `${cell(total)} ${name.replaceAll('_', ' ')}`);
  return sums.length === 0 ? 'see below' : sums.join(', ');
}

/** A table of boundary tallies: operation, cases, accepted, rejected and the codes of the rejections. */
function tallyTable(figures: Record<string, unknown>): string[] {
  const rows = Object.entries(figures).filter((entry): entry is [string, BoundaryTally] => isTally(entry[1]));
  const lines = [
    '| operation | cases | handled | refused with a typed error | codes |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const [name, tally] of rows) {
    const codes =
      Object.entries(tally.codes ?? {})
        .map(([code, count]) => `${code} ${count}`)
        .join(', ') || '—';
    lines.push(
      `| ${cell(name)} | ${cell(tally.cases)} | ${cell(tally.accepted)} | ${cell(tally.rejected)} | ${codes} |`,
    );
  }
  const total = rows.reduce((sum, [, tally]) => sum + tally.cases, 0);
  lines.push(`| **all** | **${cell(total)}** | | | |`);
  return lines;
}

/** A two-column table of every figure. */
function figureTable(figures: unknown): string[] {
  return [
    '| figure | value |',
    '| --- | --- |',
    ...leaves(figures).map(([path, value]) => `| ${cell(path)} | ${cell(value)} |`),
  ];
}

function partSection(record: PartRecord): string[] {
  const known = PARTS[record.part];
  const lines = [`### ${known?.title ?? record.part}${record.long ? ' — long form' : ''}`, ''];
  if (known !== undefined) lines.push(`Tried: ${known.tried}.`, '');
  lines.push(`Recorded ${record.recorded_at}${record.long ? ' (long form)' : ' (quick form)'}.`, '');
  const figures = record.figures;
  const tallies = isObject(figures) && Object.values(figures).some(isTally);
  lines.push(...(tallies ? tallyTable(figures as Record<string, unknown>) : figureTable(figures)), '');
  return lines;
}

/** The machine the figures come from. */
function machine(): string {
  const cpu = cpus();
  return `${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}`;
}

function commit(root: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/**
 * RELIABILITY.md's text from the recorded parts.
 *
 * @example
 * writeFileSync('RELIABILITY.md', reliabilityReport(readResults('reliability-results'), root));
 */
export function reliabilityReport(records: readonly PartRecord[], root: string): string {
  const lines = [
    '# Reliability',
    '',
    'What was tried against Engram and what held, as measured by the reliability tests',
    '(`test/reliability/`, the crash, tenancy, inspector and multi-process tests). Regenerate with `npm run reliability`',
    '(the quick forms, as CI runs them) or `ENGRAM_RELIABILITY_LONG=1 npm run reliability` (the long soak and',
    'crash loops); `npm run reliability -- --report-only` rewrites this file from the last recorded figures.',
    '',
    `Generated ${new Date().toISOString()} at commit \`${commit(root)}\` on ${machine()}.`,
    '',
    '## Summary',
    '',
    '| promise | part | tried | what held | recorded |',
    '| --- | --- | --- | --- | --- |',
  ];
  const sections = [...SECTION_ORDER, 'Other'];
  const bySection = new Map<string, PartRecord[]>(sections.map((name) => [name, []]));
  for (const record of records) bySection.get(PARTS[record.part]?.section ?? 'Other')!.push(record);
  for (const section of sections) {
    for (const record of bySection.get(section)!) {
      const figures = record.figures;
      const cases = isObject(figures)
        ? Object.values(figures)
            .filter(isTally)
            .reduce((sum, tally) => sum + tally.cases, 0)
        : 0;
      const what = cases > 0 ? `${cases.toLocaleString('en-US')} hostile cases` : tried(figures);
      lines.push(
        `| ${section} | ${PARTS[record.part]?.title ?? record.part} | ${what} | ${held(figures, cases > 0)} | ${record.recorded_at.slice(0, 16).replace('T', ' ')} UTC${record.long ? ', long' : ''} |`,
      );
    }
  }
  lines.push(
    '',
    '`npm run reliability` rewrites this file only after a run in which every one of these tests passed.',
    '',
  );
  for (const section of sections) {
    const parts = bySection.get(section)!;
    if (parts.length === 0) continue;
    lines.push(`## ${section}`, '');
    for (const record of parts) lines.push(...partSection(record));
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
