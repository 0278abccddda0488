import { afterEach, describe, expect, it, vi } from 'vitest';

import type { ExtractionEvent } from '../spec/items.js';
import {
  chatReply,
  startOpenAiCompatibleServer,
  type OpenAiCompatibleServer,
} from '../../test/helpers/openai-compatible-server.js';
import { createOpenAiCompatibleChat } from '../providers/llm/openai-compatible.js';
import { generateStructured } from '../providers/llm/generate-structured.js';
import {
  createLlmExtractor,
  renderExtractionPrompt,
  type DroppedItem,
  type LlmExtractorOptions,
} from './llm-extractor.js';

import extractItemsPrompt from './prompts/extract-items.v2.json' with { type: 'json' };

const ts = '2026-02-20T10:00:00.000Z';
const events: ExtractionEvent[] = [
  {
    event_id: 'evt_1',
    kind: 'message',
    role: 'user',
    text: 'We decided: Atlas launches on March 3. Also, lovely weather today!',
    ts,
  },
  { event_id: 'evt_2', kind: 'message', role: 'assistant', text: 'Noted, the Atlas launch is on 2026-03-03.', ts },
];

const validItem = {
  action: 'upsert',
  type: 'decisions',
  key: 'decision:atlas:launch_date',
  value: [
    { k: 'project', v: 'Atlas' },
    { k: 'decision', v: 'Launch on 2026-03-03' },
  ],
  confidence: 0.9,
  gate: 'must',
  source_event_ids: ['evt_1', 'evt_2'],
  salience: { consequence: 0.8, emotional_charge: 0.1, reusability: 0.6 },
};
const malformedKey = { ...validItem, key: 'decision:Atlas launch' };
const unknownEvent = { ...validItem, key: 'decision:atlas:venue', source_event_ids: ['evt_1', 'evt_999'] };

let server: OpenAiCompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function extractorAgainst(answer: (call: number) => string, hooks: Omit<LlmExtractorOptions, 'generate'> = {}) {
  server = await startOpenAiCompatibleServer({ chat: (_, call) => chatReply(answer(call)) });
  const model = createOpenAiCompatibleChat({ baseUrl: server.baseUrl, model: 'test-model' });
  return createLlmExtractor(model, { generate: generateStructured, ...hooks });
}

describe('createLlmExtractor', () => {
  it('sends the prompt with its json_schema response format and keeps only the valid candidate', async () => {
    const dropped: DroppedItem[][] = [];
    const extractor = await extractorAgainst(() => JSON.stringify({ items: [validItem, malformedKey, unknownEvent] }), {
      onDropped: (items) => dropped.push(items),
    });
    expect(extractor.name).toBe('llm:extract-items@2');
    const candidates = await extractor.extract({ events, known_keys: ['pref:writing:tone'] });

    expect(candidates).toEqual([
      {
        action: 'upsert',
        type: 'decisions',
        key: 'decision:atlas:launch_date',
        value: { project: 'Atlas', decision: 'Launch on 2026-03-03' },
        confidence: 0.9,
        rule: 'llm:extract-items@2',
        gate: 'must',
        source_event_ids: ['evt_1', 'evt_2'],
        salience: { consequence: 0.8, emotional_charge: 0.1, reusability: 0.6 },
        provenance: { extractor: 'llm', model: 'test-model' },
      },
    ]);
    expect(dropped).toHaveLength(1);
    expect(dropped[0]!.map((item) => [item.index, item.issues[0]!.rule, item.issues[0]!.field])).toEqual([
      [1, 'key_rule', 'items[1].key'],
      [2, 'unknown_event_id', 'items[2].source_event_ids[1]'],
    ]);

    expect(server!.requests).toHaveLength(1);
    const body = server!.requests[0]!.body as {
      messages: Array<{ role: string; content: string }>;
      response_format: unknown;
    };
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'extract-items', schema: extractItemsPrompt.output_schema, strict: true },
    });
    expect(body.messages[0]).toEqual({ role: 'system', content: extractItemsPrompt.system });
    expect(body.messages[1]!.content).toContain('"event_id":"evt_1"');
    expect(body.messages[1]!.content).toContain('- pref:writing:tone');
  });

  it('returns [] and reports the failure once after two invalid answers', async () => {
    const onFailure = vi.fn();
    const extractor = await extractorAgainst(
      (call) => (call === 1 ? 'I found a decision about Atlas.' : JSON.stringify({ memories: [] })),
      { onFailure },
    );
    expect(await extractor.extract({ events })).toEqual([]);
    expect(server!.requests).toHaveLength(2);
    expect(onFailure).toHaveBeenCalledTimes(1);
    expect(onFailure.mock.calls[0]![0]).toMatchObject({ reason: 'invalid', attempts: 2, raw: '{"memories":[]}' });
    const retryPrompt = (server!.requests[1]!.body as { messages: Array<{ content: string }> }).messages[1]!.content;
    expect(retryPrompt).toContain('not a JSON object');
  });

  it('does not retry when only some items are invalid, and drops items the schema or the ranges reject', async () => {
    const onDropped = vi.fn();
    const outOfRange = { ...validItem, key: 'decision:atlas:budget', confidence: 1.4 };
    const noSource = { ...validItem, key: 'decision:atlas:owner', source_event_ids: [] };
    const emptyUpsert = { ...validItem, key: 'decision:atlas:scope', value: [] };
    const wrongType = { ...validItem, type: 'moods' };
    const retract = {
      ...validItem,
      action: 'retract',
      type: 'preferences',
      key: 'pref:writing:tone',
      value: [],
      salience: null,
      gate: 'may',
    };
    const extractor = await extractorAgainst(
      () => JSON.stringify({ items: [outOfRange, noSource, emptyUpsert, wrongType, retract] }),
      { onDropped },
    );
    const candidates = await extractor.extract({ events, known_keys: ['pref:writing:tone'] });
    expect(candidates).toEqual([
      {
        action: 'retract',
        type: 'preferences',
        key: 'pref:writing:tone',
        value: {},
        confidence: 0.9,
        rule: 'llm:extract-items@2',
        gate: 'may',
        source_event_ids: ['evt_1', 'evt_2'],
        provenance: { extractor: 'llm', model: 'test-model' },
      },
    ]);
    const rules = (onDropped.mock.calls[0]![0] as DroppedItem[]).map((item) => item.issues.map((issue) => issue.rule));
    expect(rules).toEqual([['range'], ['required'], ['required'], ['enum']]);
    expect(server!.requests).toHaveLength(1);
  });

  it('makes no call for a turn without events', async () => {
    const extractor = await extractorAgainst(() => '{"items": []}');
    expect(await extractor.extract({ events: [] })).toEqual([]);
    expect(server!.requests).toHaveLength(0);
  });

  it('caps the number of events and refuses citations of events it did not show', async () => {
    const many = Array.from({ length: 5 }, (_, index): ExtractionEvent => ({
      event_id: `evt_${index + 1}`,
      kind: 'message',
      role: 'user',
      text: `message ${index + 1}`,
      ts,
    }));
    const citesHidden = { ...validItem, source_event_ids: ['evt_5'] };
    const extractor = await extractorAgainst(() => JSON.stringify({ items: [citesHidden] }), { maxEvents: 3 });
    expect(await extractor.extract({ events: many })).toEqual([]);
    const prompt = (server!.requests[0]!.body as { messages: Array<{ content: string }> }).messages[1]!.content;
    expect(prompt).toContain('evt_3');
    expect(prompt).not.toContain('evt_4');
  });
});

describe('createLlmExtractor values', () => {
  const said = '2026-02-21T09:30:00.000Z';
  const told: ExtractionEvent[] = [
    ...events,
    {
      event_id: 'evt_3',
      kind: 'message',
      role: 'user',
      text: 'We moved to Lisbon on May 1. My wife Hannah is allergic to peanuts.',
      ts: said,
    },
  ];
  const profileItem = (action: 'upsert' | 'retract', value: Array<{ k: string; v: string }>) => ({
    ...validItem,
    action,
    type: 'profile',
    key: 'profile:user',
    value,
    gate: 'may',
    source_event_ids: ['evt_3'],
    salience: null,
  });

  it('turns profile pairs into facts named as the rules name them, with the subject, since and the time the events state them', async () => {
    const answer = profileItem('upsert', [
      { k: 'Location', v: 'Lisbon' },
      { k: 'family: Wife', v: 'wife Hannah' },
      { k: 'since', v: '2026-05-01' },
      { k: 'subject', v: 'user' },
    ]);
    const extractor = await extractorAgainst(() => JSON.stringify({ items: [answer] }));
    const [candidate] = await extractor.extract({ events: told });
    expect(candidate).toMatchObject({
      action: 'upsert',
      key: 'profile:user',
      value: {
        subject: 'user',
        facts: [
          { k: 'location', v: 'Lisbon', since: '2026-05-01' },
          { k: 'family:wife', v: 'wife Hannah', since: '2026-05-01' },
        ],
      },
      valid_from: said,
      provenance: { extractor: 'llm', model: 'test-model' },
    });
    expect(candidate!.value).not.toHaveProperty('location');
  });

  it('ends the facts a profile retraction names instead of retracting the profile, and drops one that names none', async () => {
    const ended = profileItem('retract', [
      { k: 'location', v: 'Berlin' },
      { k: 'diet', v: '' },
    ]);
    const empty = profileItem('retract', []);
    const onlySubject = profileItem('upsert', [{ k: 'subject', v: 'user' }]);
    const badKey = profileItem('upsert', [{ k: 'pet: :bruno', v: 'dog Bruno' }]);
    const onDropped = vi.fn();
    const extractor = await extractorAgainst(() => JSON.stringify({ items: [ended, empty, onlySubject, badKey] }), {
      onDropped,
    });
    expect(await extractor.extract({ events: told })).toEqual([
      expect.objectContaining({
        action: 'upsert',
        value: {
          subject: 'user',
          facts: [
            { k: 'location', v: null, was: 'Berlin', until: '2026-02-21' },
            { k: 'diet', v: null, until: '2026-02-21' },
          ],
        },
      }),
    ]);
    expect(
      (onDropped.mock.calls[0]![0] as DroppedItem[]).map((item) => [item.issues[0]!.rule, item.issues[0]!.field]),
    ).toEqual([
      ['required', 'items[1].value'],
      ['required', 'items[2].value'],
      ['fact_key', 'items[3].value[0].k'],
    ]);
  });

  it('collects a list field from its repeated pairs and reads a numeric field as a number', async () => {
    const entity = {
      ...validItem,
      type: 'entities',
      key: 'entity:person:hannah',
      value: [
        { k: 'kind', v: 'person' },
        { k: 'canonical', v: 'Hannah' },
        { k: 'aliases', v: 'Han' },
        { k: 'aliases', v: 'H.' },
      ],
    };
    const preference = {
      ...validItem,
      type: 'preferences',
      key: 'pref:writing:tone',
      value: [
        { k: 'scope', v: 'writing' },
        { k: 'name', v: 'tone' },
        { k: 'value', v: 'formal' },
        { k: 'priority', v: '0.8' },
      ],
      source_event_ids: ['evt_1'],
    };
    const extractor = await extractorAgainst(() => JSON.stringify({ items: [entity, preference] }));
    const [person, tone] = await extractor.extract({ events: told });
    expect(person!.value).toEqual({ kind: 'person', canonical: 'Hannah', aliases: ['Han', 'H.'] });
    expect(tone).toMatchObject({
      value: { scope: 'writing', name: 'tone', value: 'formal', priority: 0.8 },
      valid_from: ts,
    });
  });
});

describe('renderExtractionPrompt', () => {
  it('writes numbered JSON lines, cuts each text at 2,000 characters and never expands placeholders inside texts', () => {
    const prompt = renderExtractionPrompt(
      [
        { event_id: 'evt_a', kind: 'message', role: 'user', text: 'see {{known_keys}}', ts },
        {
          event_id: 'evt_b',
          kind: 'tool_result',
          role: 'tool',
          text: 'y'.repeat(5_000),
          tool_name: 'build',
          tool_status: 'ok',
          ts,
        },
      ],
      [],
    );
    expect(prompt).toContain(`[1] {"event_id":"evt_a","role":"user","ts":"${ts}","text":"see {{known_keys}}"}`);
    expect(prompt).toContain(`"text":"${'y'.repeat(2_000)}…","tool_name":"build","tool_status":"ok"}`);
    expect(prompt).not.toContain('y'.repeat(2_001));
    expect(prompt).toContain('(none)');
    expect(prompt).not.toContain('{{events}}');
  });
});
