import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { citationHandle, renderPacket, resolveCitation, speakersOf } from '../index.js';
import { formatPacket } from '../cli/format-packet.js';
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

  it('shows key quotes under the day each was said, one heading a day, and charges each heading once', async () => {
    const days = ['2026-05-10', '2026-05-10', '2026-05-20', '2026-05-10', '2026-05-20'];
    for (const [index, day] of days.entries()) {
      await t.engram.commitTurn({
        scope: { ...scope, session_id: `day-${day}` },
        turn_id: `pottery-${index}`,
        ts: `${day}T09:0${index}:00.000Z`,
        messages: [{ role: 'user', content: `Pottery class note ${index}: the glaze on bowl ${index} cracked.` }],
      });
    }
    const packet = await t.engram.compose({
      scope: { ...scope, session_id: 'later' },
      purpose: 'responder',
      cues: { query: 'pottery class glaze' },
      budget: { max_tokens: 600 },
    });
    const quoted = packet.short_term.key_quotes!.filter((quote) => quote.quote.includes('Pottery class'));
    expect(quoted).toHaveLength(5);
    const markdown = renderPacket(packet);
    for (const format of ['markdown', 'xml'] as const) {
      const text = renderPacket(packet, { format });
      // Each day once, the days in the order of their first quote, and no date on a quote's line.
      expect(text.match(/2026-05-10:/gu)).toHaveLength(1);
      expect(text.match(/2026-05-20:/gu)).toHaveLength(1);
      const first = quoted[0]!.ts!.slice(0, 10);
      const second = first === '2026-05-10' ? '2026-05-20' : '2026-05-10';
      expect(text.indexOf(`${first}:`)).toBeLessThan(text.indexOf(`${second}:`));
      expect(o200kTokenizer.count(text)).toBeLessThanOrEqual(packet.budget_report.used_tokens_est);
    }
    for (const quote of quoted) {
      const line = markdown.split('\n').find((entry) => entry.includes(`[${citationHandle(quote.evidence_id!)}]`))!;
      expect(line).toMatch(/^- \[\w{6}\] user: Pottery class note/u);
      // The quote sits under its own day's heading.
      const above = markdown
        .slice(0, markdown.indexOf(line))
        .match(/\n(\d{4}-\d{2}-\d{2}):\n/gu)!
        .at(-1)!;
      expect(above.trim()).toBe(`${quote.ts!.slice(0, 10)}:`);
    }
  });

  it('names who said each quote and message where the event has a speaker, and charges the name', async () => {
    const longName = `Dr. <Ana> & ${'Beatriz '.repeat(10)}Souza`;
    const said = [
      { role: 'user' as const, speaker: 'Caroline', content: 'I went to the pottery class on Friday and made a bowl.' },
      { role: 'assistant' as const, speaker: 'Melanie', content: 'My kids loved the pottery class, they made a cup.' },
      { role: 'user' as const, speaker: longName, content: 'The pottery class teacher glazed every bowl twice.' },
      // A speaker of nothing but spaces names nobody.
      { role: 'user' as const, speaker: ' \n ', content: 'Nobody named said the pottery class was too loud.' },
    ];
    for (const [index, message] of said.entries()) {
      t.clock.advance(60_000);
      await t.engram.commitTurn({ scope, turn_id: `said-${index}`, messages: [message] });
    }
    for (const purpose of ['responder', 'planner'] as const) {
      const packet = await t.engram.compose({
        scope: { ...scope, session_id: purpose === 'responder' ? 'later' : scope.session_id },
        purpose,
        cues: { query: 'pottery class' },
        budget: { max_tokens: 700 },
      });
      const speakers = speakersOf(packet.citations);
      const shown = [
        ...(packet.short_term.key_quotes ?? []).map((quote) => ({ id: quote.evidence_id, text: quote.quote })),
        ...(packet.short_term.conversation_window ?? []).map((message) => ({
          id: message.evidence_id,
          text: message.content,
        })),
      ];
      const markdown = renderPacket(packet);
      const lineOf = (text: string) => {
        const entry = shown.find((item) => item.text.startsWith(text.slice(0, 20)));
        expect(entry, `${purpose}: ${text}`).toBeDefined();
        return markdown.split('\n').find((line) => line.includes(`[${citationHandle(entry!.id)}]`))!;
      };
      expect(lineOf(said[0]!.content)).toMatch(/\] Caroline(, \d{4}-\d{2}-\d{2})?: I went/u);
      expect(lineOf(said[1]!.content)).toMatch(/\] Melanie(, \d{4}-\d{2}-\d{2})?: My kids/u);
      // A long name shows its first 40 characters; the citation keeps it whole.
      expect(lineOf(said[2]!.content)).toContain(`] ${[...longName].slice(0, 40).join('').trim()}`);
      expect([...speakers.values()]).toContain(longName);
      expect(lineOf(said[3]!.content)).toMatch(/\] user(, \d{4}-\d{2}-\d{2})?: Nobody named/u);
      expect(packet.citations.filter((citation) => citation.summary !== undefined)).toHaveLength(3);
      // The session's own rolling summary names them too, one line a speaker.
      if (purpose === 'planner') {
        expect(packet.short_term.rolling_summary).toContain('Caroline: I went to the pottery class');
        expect(packet.short_term.rolling_summary).toContain(
          `${[...longName].slice(0, 40).join('').trim()}: The pottery`,
        );
        expect(packet.short_term.rolling_summary).toMatch(/^User: Nobody named/mu);
      }
      for (const format of ['markdown', 'xml'] as const)
        expect(o200kTokenizer.count(renderPacket(packet, { format }))).toBeLessThanOrEqual(
          packet.budget_report.used_tokens_est,
        );
    }
  });

  it("shows a dated event's episode under its day once, and charges what it shows (and the CLI shows it so)", async () => {
    await t.engram.commitTurn({
      scope,
      turn_id: 'beta',
      messages: [{ role: 'user', content: 'On 8 May 2023 we shipped the first beta.' }],
    });
    // No room for facts: the dated event shows as an episode.
    const packet = await t.engram.compose({
      scope,
      purpose: 'responder',
      cues: { query: 'When did we ship the first beta?' },
      budget: {
        max_tokens: 1000,
        per_section: {
          working_state: 100,
          short_term_summary: 300,
          facts: 0,
          procedures: 0,
          episodes: 200,
          insights: 0,
        },
      },
    });
    const [episode] = packet.long_term.episodes;
    expect(episode?.summary).toBe('2023-05-08: On 8 May 2023 we shipped the first beta');
    const markdown = renderPacket(packet);
    expect(markdown).toContain(`- [${citationHandle(episode!.episode_id)}] 2023-05-08: On 8 May 2023 we shipped`);
    expect(markdown).not.toContain('2023-05-08: 2023-05-08');
    // The CLI's text view too.
    expect(formatPacket(packet)).toContain(
      `  2023-05-08: On 8 May 2023 we shipped the first beta [${episode!.episode_id}]`,
    );
    for (const format of ['markdown', 'xml'] as const)
      expect(o200kTokenizer.count(renderPacket(packet, { format }))).toBeLessThanOrEqual(
        packet.budget_report.used_tokens_est,
      );
  });
});
