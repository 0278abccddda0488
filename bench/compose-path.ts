// The path one compose takes through the code, measured on a real store: how many src/ files run a
// function during it, how often it enters the packet builder (and from which files), and how often
// an id it wrote into a string is parsed back out of it. Run with `npx tsx bench/compose-path.ts`;
// a responder packet (a LoCoMo question over the first conversation) and a planner packet (a
// session with working state, tool results and procedures) are composed once to warm up, then once
// measured with V8's precise coverage (a call count for every function).

import crypto from 'node:crypto';
import { Session } from 'node:inspector/promises';
import { syncBuiltinESMExports } from 'node:module';
import { fileURLToPath } from 'node:url';

import type { ComposeRequest, Engram } from '../src/index.js';
import { seededRandom } from './corpus.js';

// Ids are ULIDs whose random part is a packet's citation handle, and a handle's tokens are part of
// what a line costs: with the randomness seeded (and the clock ahead of the real time, so every id
// without a time of its own continues the last one), each run composes the same packets.
const random = seededRandom(31);
crypto.randomFillSync = (<T extends NodeJS.ArrayBufferView>(buffer: T): T => {
  const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  for (let index = 0; index < bytes.length; index += 1) bytes[index] = Math.floor(random() * 256);
  return buffer;
}) as typeof crypto.randomFillSync;
syncBuiltinESMExports();

const { PacketBuilder } = await import('../src/composer/packet-builder.js');
const { loadLocomo } = await import('./locomo-data.js');
const { withTempStore } = await import('./temp-store.js');

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const BUILDER_FILE = 'composer/packet-builder.ts';
const AGENT = 'path-agent';
const LOCOMO_USER = 'locomo-user';
const PLANNER = { user_id: 'planner-user', agent_id: AGENT, session_id: 'launch', run_id: 'run-1' };
const START = Date.parse('2030-03-02T09:00:00.000Z');

/**
 * Where compose wrote an id into a string and read it back, found by grep: `item.search(PART_END)`
 * (packet-builder's blockOf: the rendered part from an explain id such as `key_quotes:evt_…`) and
 * the evt/mem regex over explain.selected (compose: the build's selected ids from the explain
 * lines). The innermost function whose source holds the pattern counts once per call; since the
 * builder keeps an item's ref structured until it writes explain, both count 0.
 */
const ROUND_TRIPS: ReadonlyArray<{ name: string; pattern: RegExp }> = [
  { name: 'explain id → rendered part', pattern: /\.search\(PART_END\)/ },
  { name: 'explain line → selected ids', pattern: /\(\?:evt\|mem\)_/ },
];

interface FunctionCount {
  file: string;
  name: string;
  start: number;
  end: number;
  count: number;
  source: string;
}

interface PathMeasure {
  files: string[];
  builderCalls: number;
  builderFileCalls: number;
  entries: Map<string, number>;
  roundTrips: Map<string, number>;
}

/** Every src/ function that ran since the last take, with its call count. */
async function takeCounts(session: Session): Promise<FunctionCount[]> {
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const out: FunctionCount[] = [];
  for (const script of result) {
    if (!script.url.startsWith('file://')) continue;
    const path = fileURLToPath(script.url);
    if (!path.startsWith(SRC)) continue;
    const { scriptSource } = await session.post('Debugger.getScriptSource', { scriptId: script.scriptId });
    for (const fn of script.functions) {
      const range = fn.ranges[0]!;
      // The module's top level runs once at import, not during compose.
      if (fn.functionName === '' && range.startOffset === 0) continue;
      out.push({
        file: path.slice(SRC.length),
        name: fn.functionName,
        start: range.startOffset,
        end: range.endOffset,
        count: range.count,
        source: scriptSource,
      });
    }
  }
  return out;
}

/** The builder's own members, as V8 names them (`offer`, `get usedTokens`, the constructor). */
function builderMembers(): Set<string> {
  const names = new Set<string>([PacketBuilder.name]);
  for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(PacketBuilder.prototype))) {
    if (name === 'constructor') continue;
    names.add(descriptor.get === undefined ? name : `get ${name}`);
  }
  return names;
}

/** The src/ file of the frame that called into the builder (below the wrapper and this module). */
function callerFile(): string {
  const frames = (new Error().stack ?? '').split('\n').slice(1);
  for (const frame of frames) {
    const at = frame.indexOf(SRC);
    if (at < 0) continue;
    const file = frame.slice(at + SRC.length).replace(/:\d+:\d+\)?$/, '');
    return file;
  }
  return '(outside src)';
}

/** Where builder entries are counted while a compose is measured; none between measures. */
let counting: Map<string, number> | null = null;

/**
 * Counts, by calling file, every call of a builder method and every push onto an array the builder
 * exposes (explain lines, degradations) made from outside the builder's file, while `counting` is set.
 */
function countEntries(): void {
  const record = () => {
    const entries = counting;
    if (entries === null) return;
    const file = callerFile();
    if (file !== BUILDER_FILE) entries.set(file, (entries.get(file) ?? 0) + 1);
  };
  const watched = new WeakSet<object>();
  const watchArrays = (builder: object) => {
    if (watched.has(builder)) return;
    watched.add(builder);
    for (const value of Object.values(builder)) {
      if (!Array.isArray(value)) continue;
      const push = value.push.bind(value);
      Object.defineProperty(value, 'push', {
        value: (...items: unknown[]) => {
          record();
          return push(...items);
        },
      });
    }
  };
  const prototype = PacketBuilder.prototype as unknown as Record<string, unknown>;
  for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(prototype))) {
    if (name === 'constructor') continue;
    if (typeof descriptor.value === 'function') {
      const method = descriptor.value as (...args: unknown[]) => unknown;
      Object.defineProperty(prototype, name, {
        ...descriptor,
        value: function (this: object, ...args: unknown[]) {
          watchArrays(this);
          record();
          return method.apply(this, args);
        },
      });
    } else if (descriptor.get !== undefined) {
      const get = descriptor.get;
      Object.defineProperty(prototype, name, {
        ...descriptor,
        get: function (this: object) {
          watchArrays(this);
          record();
          return get.call(this);
        },
      });
    }
  }
}

function measureCounts(counts: readonly FunctionCount[], members: ReadonlySet<string>) {
  const ran = counts.filter((fn) => fn.count > 0);
  const files = [...new Set(ran.map((fn) => fn.file))].sort();
  const builderCalls = ran
    .filter((fn) => fn.file === BUILDER_FILE && members.has(fn.name))
    .reduce((sum, fn) => sum + fn.count, 0);
  const builderFileCalls = ran.filter((fn) => fn.file === BUILDER_FILE).reduce((sum, fn) => sum + fn.count, 0);
  const roundTrips = new Map<string, number>();
  for (const { name, pattern } of ROUND_TRIPS) {
    let calls = 0;
    for (const fn of ran) {
      const body = fn.source.slice(fn.start, fn.end);
      const at = body.search(pattern);
      if (at < 0) continue;
      // Only the innermost function holding the pattern counts.
      const inner = ran.some(
        (other) =>
          other !== fn &&
          other.file === fn.file &&
          other.start > fn.start &&
          other.end < fn.end &&
          other.start <= fn.start + at &&
          other.end > fn.start + at,
      );
      if (!inner) calls += fn.count;
    }
    roundTrips.set(name, calls);
  }
  return { files, builderCalls, builderFileCalls, roundTrips };
}

async function measure(session: Session, engram: Engram, request: ComposeRequest): Promise<PathMeasure> {
  const members = builderMembers();
  await engram.compose(request);
  await takeCounts(session);
  const entries = new Map<string, number>();
  counting = entries;
  await engram.compose(request);
  counting = null;
  const counts = await takeCounts(session);
  return { ...measureCounts(counts, members), entries };
}

/** The first LoCoMo conversation, one turn a message, in its dated sessions. */
async function ingestLocomo(engram: Engram): Promise<string> {
  const conversation = loadLocomo().conversations[0]!;
  const turns = conversation.turns.map((turn) => ({
    scope: { user_id: LOCOMO_USER, agent_id: AGENT, session_id: `session_${turn.session}`, run_id: 'locomo' },
    turn_id: turn.dia_id,
    ts: turn.ts,
    messages: [
      {
        role: turn.side === 'a' ? ('user' as const) : ('assistant' as const),
        speaker: turn.speaker,
        content: turn.text,
      },
    ],
  }));
  for (let index = 0; index < turns.length; index += 100) await engram.commitTurns(turns.slice(index, index + 100));
  return conversation.questions.find((question) => question.category === 1)!.question;
}

/** A planning session: a goal, plan, decisions and open loops, tool results, a procedure and preferences. */
async function ingestPlanner(engram: Engram): Promise<void> {
  await engram.commitTurn({
    scope: PLANNER,
    turn_id: 'p1',
    messages: [
      { role: 'user', content: 'We launch Atlas on 2030-04-15. I prefer short status notes in the morning.' },
      { role: 'assistant', content: 'Noted: Atlas launches on 2030-04-15, and status notes stay short.' },
    ],
    state_patch: {
      expected_version: 0,
      set: { goal: 'Prepare the Atlas launch', slots: { customer: 'ACME' }, constraints: { budget_eur: 20000 } },
      append: {
        plan: [
          { step: 'Draft the launch note', status: 'done' },
          { step: 'Book the venue', status: 'in_progress' },
          { step: 'Invite the press', status: 'todo' },
        ],
        decisions: [{ statement: 'Launch in the EU region first' }],
        risks: [{ risk: 'The venue may be booked', mitigation: 'Hold a second venue' }],
        open_loops: [{ question: 'Which venue does ACME prefer?', status: 'open', owner: 'user' }],
      },
    },
  });
  await engram.commitTurn({
    scope: PLANNER,
    turn_id: 'p2',
    messages: [{ role: 'user', content: 'Hall B looked good last time; check whether it is free for the launch.' }],
    tool_results: [
      { tool_name: 'venue_search', content: { venue: 'Hall B', capacity: 300, available: true } },
      { tool_name: 'calendar', content: { date: '2030-04-15', conflicts: [] } },
    ],
  });
  await engram.items.remember({
    scope: { user_id: 'admin', agent_id: AGENT },
    type: 'procedure',
    key: 'procedure:generic:launch-checklist',
    value: {
      task_type: 'generic',
      name: 'Launch checklist',
      steps: ['Confirm the venue', 'Send invitations', 'Brief the press'],
    },
  });
  await engram.items.remember({
    scope: PLANNER,
    type: 'preferences',
    key: 'pref:communication:status_notes',
    value: { scope: 'communication', name: 'status_notes', value: 'short, in the morning' },
  });
}

function table(responder: PathMeasure, planner: PathMeasure): string {
  const composer = (measure: PathMeasure) => measure.files.filter((file) => file.startsWith('composer/')).length;
  const entries = (measure: PathMeasure) => [...measure.entries.values()].reduce((sum, count) => sum + count, 0);
  const callers = [...new Set([...responder.entries.keys(), ...planner.entries.keys()])].sort();
  const rows: Array<[string, number, number]> = [
    ['src/ files with a function run', responder.files.length, planner.files.length],
    ['  of them in src/composer/', composer(responder), composer(planner)],
    ['PacketBuilder method calls', responder.builderCalls, planner.builderCalls],
    [`calls of any function in ${BUILDER_FILE}`, responder.builderFileCalls, planner.builderFileCalls],
    ['PacketBuilder entries from other files', entries(responder), entries(planner)],
    ...callers.map((file): [string, number, number] => [
      `  from ${file}`,
      responder.entries.get(file) ?? 0,
      planner.entries.get(file) ?? 0,
    ]),
    ...ROUND_TRIPS.map(({ name }): [string, number, number] => [
      `id written into a string, parsed back: ${name}`,
      responder.roundTrips.get(name) ?? 0,
      planner.roundTrips.get(name) ?? 0,
    ]),
  ];
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(['one compose', 'responder', 'planner']),
    line(['---', '---:', '---:']),
    ...rows.map(([name, a, b]) => line([name, String(a), String(b)])),
  ].join('\n');
}

async function main(): Promise<void> {
  let now = START;
  const clock = { now: () => new Date((now += 1000)) };
  await withTempStore(
    'normal',
    async (engram) => {
      const question = await ingestLocomo(engram);
      await ingestPlanner(engram);
      await engram.maintenance.runEmbeddings();
      countEntries();
      const session = new Session();
      session.connect();
      await session.post('Debugger.enable');
      await session.post('Profiler.enable');
      await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
      const responder = await measure(session, engram, {
        scope: { user_id: LOCOMO_USER, agent_id: AGENT, session_id: 'questions', run_id: 'locomo' },
        purpose: 'responder',
        cues: { query: question },
        budget: { max_tokens: 1000 },
      });
      const planner = await measure(session, engram, {
        scope: PLANNER,
        purpose: 'planner',
        cues: { query: 'venue for the Atlas launch' },
      });
      await session.post('Profiler.stopPreciseCoverage');
      session.disconnect();
      console.log(table(responder, planner));
      console.log(`\nresponder: ${responder.files.join(', ')}\n\nplanner: ${planner.files.join(', ')}`);
    },
    { clock },
  );
}

await main();
