import { describe, expect, it } from 'vitest';

import type { ExtractionEvent, ItemCandidate } from '../../spec/items.js';
import { assertKey } from '../keys.js';
import { createRuleExtractor } from './index.js';

const TS = '2026-02-18T10:00:00Z';

function run(event: Partial<ExtractionEvent> & Pick<ExtractionEvent, 'text'>): ItemCandidate[] {
  const full: ExtractionEvent = { event_id: 'evt_tool', kind: 'tool_result', role: 'tool', ts: TS, ...event };
  const out = createRuleExtractor().extract({ events: [full] }) as ItemCandidate[];
  for (const candidate of out) assertKey(candidate.type, candidate.key);
  return out;
}

describe('tool results', () => {
  it('turns a result that created something into a must event with its artifacts', () => {
    const data = { id: 4012, number: 12, html_url: 'https://github.com/acme/atlas/issues/12', title: 'Fix login' };
    const out = run({
      tool_name: 'github.create_issue',
      tool_status: 'ok',
      text: 'id: 4012\nnumber: 12\nhtml_url: https://github.com/acme/atlas/issues/12\ntitle: Fix login',
      data,
    });
    expect(out.map((candidate) => [candidate.key, candidate.gate, candidate.rule])).toEqual([
      ['event:github_create_issue:2026-02-18:create_4012', 'must', 'tool.state_change'],
      ['entity:repo:acme/atlas', 'must', 'any.entity.repo'],
      ['entity:url:github.com/acme/atlas/issues/12', 'must', 'any.entity.url'],
    ]);
    expect(out[0]).toMatchObject({
      type: 'events',
      value: {
        scope: 'github.create_issue',
        date: '2026-02-18',
        title: 'github.create_issue: create Fix login',
        status: 'ok',
        artifacts: [
          { kind: 'id', ref: '4012' },
          { kind: 'id', ref: '12' },
          { kind: 'repo', ref: 'acme/atlas' },
          { kind: 'url', ref: 'https://github.com/acme/atlas/issues/12' },
        ],
      },
      entities: ['entity:repo:acme/atlas', 'entity:url:github.com/acme/atlas/issues/12'],
    });
    expect(out[0]!.evidence_refs).toContainEqual({ kind: 'url', ref: 'https://github.com/acme/atlas/issues/12' });
  });

  it('reads the state change from the output when the tool name does not say it', () => {
    const out = run({ tool_name: 'shell', text: 'Deployed atlas v1.2 to https://atlas.example.com (build ABC-123)' });
    expect(out.map((candidate) => candidate.key)).toEqual([
      'event:shell:2026-02-18:deployed_abc_123',
      'entity:url:atlas.example.com',
    ]);
    const file = run({ tool_name: 'writeFile', text: 'Wrote 120 lines to ./src/a.ts' });
    expect(file.map((candidate) => candidate.key)).toEqual([
      'event:writefile:2026-02-18:wrote_a_ts',
      'entity:file:src/a.ts',
    ]);
    expect(file[0]!.evidence_refs).toContainEqual({ kind: 'file', ref: 'src/a.ts' });
  });

  it('produces nothing for read-only results and failures', () => {
    expect(
      run({
        tool_name: 'web_search',
        tool_status: 'ok',
        text: 'results: Created by Acme https://a.example/b, updated daily',
      }),
    ).toEqual([]);
    expect(run({ tool_name: 'get_weather', text: 'city: Lisbon\ntemp_c: 21' })).toEqual([]);
    expect(run({ tool_name: 'send_email', tool_status: 'error', text: 'quota exceeded' })).toEqual([]);
    expect(run({ tool_name: 'calendar', text: 'Error: permission denied' })).toEqual([]);
    expect(run({ tool_name: 'calculator', text: '42' })).toEqual([]);
  });

  it('reads tool results only through the tool rules', () => {
    expect(run({ tool_name: 'echo', text: 'I prefer a formal tone. We decided to use Postgres for storage.' })).toEqual(
      [],
    );
  });
});
