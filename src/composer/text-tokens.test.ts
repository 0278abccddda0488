import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { EventRecord, MemoryPacket } from '../index.js';
import { newId } from '../util/ids.js';
import { o200kTokenizer } from '../util/tokenizer.js';
import { scope, tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';
import { eventRecord } from '../testing/event-record.js';
import { itemLine, itemText, joinLine, type ItemLine } from './item-text.js';
import { LineCosts, promptTokenizer, textTokenCounter } from './text-tokens.js';

const prompt = promptTokenizer(o200kTokenizer);

function costs(): LineCosts {
  return new LineCosts(o200kTokenizer);
}

// Characters where tokenizers go wrong: spaces and line breaks, XML's specials, apostrophes,
// digits, accents, CJK, an emoji (a surrogate pair), punctuation runs.
const CHARS = [
  'a',
  'b',
  'Z',
  'é',
  ' ',
  ' ',
  '\n',
  '\t',
  '\r',
  '&',
  '<',
  '>',
  "'",
  's',
  '’',
  '.',
  ',',
  ':',
  '-',
  '/',
  '_',
  '1',
  '9',
  '中',
  '文',
  '😀',
  '\u00a0',
  '"',
  '(',
  ')',
];
const text = (maxLength: number) => fc.string({ unit: fc.constantFrom(...CHARS), maxLength });
const label = fc.oneof(
  fc.constantFrom(
    ' user, 2026-06-01:',
    ' assistant, 2026-06-01:',
    ' pref:writing:tone:',
    ' pref:food (disputed):',
    '2026-06-01:',
    '',
  ),
  text(30).map((middle) => ` ${middle}:`),
  text(30).map((middle) => `7${middle}:`),
  text(30),
);

describe('line token counts', () => {
  it('property: a line costs its handle and text (as a row keeps them) plus its label, exactly what the joined line counts', () => {
    fc.assert(
      fc.property(text(120), label, (body, middle) => {
        const id = newId('evt');
        const line: ItemLine = { handle: itemLine.procedure(id, '').handle, label: middle, body };
        const parts = costs();
        // A record whose row keeps no count: its count is made the way a store's counter makes it.
        const counted = parts.recordTokens({} as EventRecord, line);
        expect(parts.lineCost(line, counted)).toBe(prompt.count(joinLine(line)));
      }),
      { numRuns: 400 },
    );
  });

  it('property: a tool result shown whole as tool evidence costs its kept count plus its tool name, as the rendered line counts', () => {
    fc.assert(
      fc.property(text(120), text(16), (body, toolName) => {
        const id = newId('evt');
        const line = itemLine.toolResult(id, toolName, body);
        const rendered = itemText.toolEvidence({ ref: id, summary: `${toolName}: ${body}` });
        // Compose counts the parts only when they join into the rendered line.
        fc.pre(body !== '' && joinLine(line) === rendered);
        const parts = costs();
        expect(parts.lineCost(line, parts.recordTokens({} as EventRecord, line))).toBe(prompt.count(rendered));
      }),
      { numRuns: 400 },
    );
  });

  it('counts at write what compose counts at read for an event line, and nothing for events never shown', () => {
    const counter = textTokenCounter();
    for (const content of [
      '2026 plans: book Hall B & the <caterer>.\nThen call ACME.',
      '',
      '我更喜欢用中文写技术文档。',
    ]) {
      const event = eventRecord({ content });
      const line = itemLine.keyQuote({ evidence_id: event.id, quote: content, role: 'user', ts: event.ts });
      expect(counter.event(event)).toBe(costs().recordTokens({} as EventRecord, line));
    }
    expect(counter.event(eventRecord({ content: 'the vault code', sensitivity: 'secret' }))).toBeNull();
    expect(counter.event(eventRecord({ content: 'run ended', kind: 'marker', marker: 'RUN_END' }))).toBeNull();
  });
});

describe('compose with counts kept in the store', () => {
  let t: TempEngram;
  beforeEach(async () => {
    t = await tempEngram();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const SNIPPET =
    'The Atlas venue is Hall B. We booked it for the launch on Friday, with catering for three hundred guests and a stage.';
  const VENUE = `${SNIPPET} Parking is in the garage across the street, and the doors open at six for the crew, two hours before the guests arrive.`;

  async function seed(): Promise<void> {
    await t.engram.commitTurn({
      scope,
      turn_id: 't1',
      messages: [
        { role: 'user', content: VENUE },
        { role: 'assistant', content: 'Noted: Hall B for the Atlas launch.' },
      ],
      tool_results: [{ tool_name: 'venue_search', content: { venue: 'Hall B', capacity: 300, available: true } }],
    });
    await t.engram.items.remember({
      scope,
      type: 'preferences',
      key: 'pref:writing:tone',
      value: { scope: 'writing', name: 'tone', value: 'concise answers with numbered steps' },
    });
  }

  /** Runs SQL on the store file beside the open Engram (WAL lets both in). */
  function onFile<T>(body: (db: Database.Database) => T): T {
    const db = new Database(t.path);
    try {
      return body(db);
    } finally {
      db.close();
    }
  }

  const request = { scope, purpose: 'planner' as const, cues: { query: 'Atlas venue' } };
  const quotes = (packet: MemoryPacket) => packet.short_term.key_quotes!.map((quote) => quote.quote);

  it('charges what the rows keep: an event or item version kept as costly is degraded', async () => {
    await seed();
    const before = await t.engram.compose(request);
    expect(quotes(before)).toContain(VENUE);
    expect(before.long_term.facts.find((fact) => fact.fact_key === 'pref:writing:tone')?.notes).toBe(
      'Prefers concise answers with numbered steps (writing tone)',
    );
    expect(before.short_term.last_tool_evidence!.map((evidence) => evidence.summary)).toEqual([
      'venue_search: venue: Hall B\ncapacity: 300\navailable: true',
    ]);

    onFile((db) => db.exec('UPDATE events SET text_tokens = 100000; UPDATE memory_items SET text_tokens = 100000'));
    const after = await t.engram.compose(request);
    // The passage shows its snippet (the sentence that matches the cues and the next, within 40
    // words), the preference only its reference, and the conversation window its messages cut or by reference.
    expect(quotes(after)).toContain(SNIPPET);
    expect(quotes(after)).not.toContain(VENUE);
    expect(after.long_term.facts.find((fact) => fact.fact_key === 'pref:writing:tone')?.notes).toBe('');
    expect(after.short_term.conversation_window!.map((message) => message.content)).not.toContain(VENUE);
    // The tool result, kept as costly, is shown cut: counted whole, it fitted its raw limit.
    expect(after.short_term.last_tool_evidence!.map((evidence) => evidence.summary)).toEqual([
      'venue_search: venue: Hall B\ncapacity: 300\navailable:…',
    ]);
    expect(after.budget_report.degradations.map((step) => step.action)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^facts:mem_\w+: raw→ref$/),
        expect.stringMatching(/^conversation_window:evt_\w+: raw→summary$/),
        expect.stringMatching(/^last_tool_evidence:evt_\w+: raw→summary$/),
      ]),
    );
  });

  it('takes no kept count from an import file: a summary sentence claiming one token is counted', async () => {
    await seed();
    const lines: string[] = [];
    for await (const line of t.engram.maintenance.exportData()) lines.push(line);
    const forged = lines.map((line) => {
      const record = JSON.parse(line) as { kind: string; summary?: { sentences: Array<Record<string, unknown>> } };
      if (record.kind === 'summary') for (const sentence of record.summary!.sentences) sentence['spaced_tokens'] = 1;
      return JSON.stringify(record);
    });
    expect(forged.join('\n')).toContain('"spaced_tokens":1');
    await t.engram.maintenance.importData(forged, { tenant_id: 'imported' });
    const summary = await t.storage.sessions.getSummary({
      tenant_id: 'imported',
      user_id: scope.user_id,
      agent_id: scope.agent_id!,
      session_id: scope.session_id!,
    });
    expect(summary!.sentences.length).toBeGreaterThan(0);
    expect(summary!.sentences.map((sentence) => sentence.spaced_tokens)).toEqual(
      summary!.sentences.map(() => undefined),
    );
  });

  it('replays byte-identically once the rows keep no counts (a store written before they were kept)', async () => {
    await seed();
    const original = await t.engram.compose(request);
    const kept = onFile(
      (db) =>
        db
          .prepare(
            'SELECT (SELECT count(text_tokens) FROM events) + (SELECT count(text_tokens) FROM memory_items) AS n',
          )
          .get() as { n: number },
    );
    expect(kept.n).toBeGreaterThanOrEqual(3);

    onFile((db) => db.exec('UPDATE events SET text_tokens = NULL; UPDATE memory_items SET text_tokens = NULL'));
    const replayed = await t.engram.builds.replay(original.explain.determinism!['context_build_id'] as string);
    expect(replayed.identical).toBe(true);
    expect(JSON.stringify(replayed.packet)).toBe(JSON.stringify(original));
  });
});
