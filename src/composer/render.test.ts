import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { citationHandle, renderPacket, resolveCitation } from '../index.js';
import { o200kTokenizer } from '../util/tokenizer.js';
import { scope, tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';

let t: TempEngram;
beforeEach(async () => {
  t = await tempEngram();
  await t.engram.commitTurn({
    scope,
    turn_id: 't1',
    messages: [
      { role: 'user', content: 'I prefer <b>bold</b> & "quoted" answers. We decided to ship on 2026-12-01.' },
      { role: 'assistant', content: 'Noted.' },
    ],
    state_patch: { expected_version: 0, set: { goal: 'Ship', plan: [{ step: 'Write notes', status: 'todo' }] } },
  });
});
afterEach(async () => {
  await t.cleanup();
});

describe('renderPacket', () => {
  it('renders Markdown with every item carrying its citation handle, and nothing the purpose excludes', async () => {
    const planner = await t.engram.compose({ scope, purpose: 'planner', cues: { query: 'answers' } });
    const text = renderPacket(planner);
    expect(text).toMatch(/^# Memory for the planner/);
    expect(text).toContain('## Working state');
    expect(text).toContain('Plan:\n1. [todo] Write notes');
    expect(planner.short_term.key_quotes!.length).toBeGreaterThan(0);
    expect(planner.long_term.facts.length).toBeGreaterThan(0);
    // Each item shows the last six characters of its id, and the handle resolves to that id.
    for (const id of [
      ...planner.short_term.key_quotes!.map((quote) => quote.evidence_id!),
      ...planner.long_term.facts.map((fact) => fact.fact_id),
    ]) {
      expect(text).toContain(`[${id.slice(-6)}]`);
      expect(text).not.toContain(id);
      expect(resolveCitation(planner, `[${citationHandle(id)}]`)).toEqual([id]);
    }
    expect(resolveCitation(planner, '[ZZZZZZ]')).toEqual([]);
    expect(resolveCitation(planner, '')).toEqual([]);
    const responder = renderPacket(await t.engram.compose({ scope, purpose: 'responder' }));
    expect(responder).not.toContain('Plan:');
    expect(responder).not.toContain('## Recent conversation');
    expect(responder).not.toContain('## Procedures');
  });

  it('renders XML with escaped text, deterministically', async () => {
    const packet = await t.engram.compose({ scope, purpose: 'planner', as_of: '2026-06-01T12:00:00.000Z' });
    const xml = renderPacket(packet, { format: 'xml' });
    expect(xml).toMatch(/^<memory purpose="planner" generated_at="2026-06-01T12:00:00.000Z">/);
    expect(xml).toContain('&lt;b&gt;bold&lt;/b&gt; &amp; "quoted"');
    expect(xml).not.toContain('<b>');
    expect(xml).toBe(renderPacket(packet, { format: 'xml' }));
    expect(
      renderPacket(await t.engram.compose({ scope, purpose: 'planner', as_of: '2026-06-01T12:00:00.000Z' }), {
        format: 'xml',
      }),
    ).toBe(xml);
  });

  it('fits the budget in both formats when the text is full of characters XML escapes', async () => {
    for (let index = 0; index < 30; index += 1) {
      t.clock.advance(1000);
      await t.engram.commitTurn({
        scope,
        turn_id: `markup-${index}`,
        messages: [
          { role: 'user', content: `"Q&A" <b>${index}</b> & <i>pottery</i> && <<class>> & "R&D" <tag attr="x">` },
        ],
      });
    }
    for (const max_tokens of [256, 400, 800, 1500]) {
      for (const purpose of ['planner', 'tool', 'responder'] as const) {
        const packet = await t.engram.compose({
          scope,
          purpose,
          cues: { query: 'pottery class' },
          budget: { max_tokens },
        });
        expect(o200kTokenizer.count(renderPacket(packet, { format: 'markdown' }))).toBeLessThanOrEqual(max_tokens);
        expect(o200kTokenizer.count(renderPacket(packet, { format: 'xml' }))).toBeLessThanOrEqual(max_tokens);
      }
    }
  });
});
