import { describe, expect, it } from 'vitest';

import type { EventRecord } from '../spec/event.js';
import { eventRecord } from '../testing/event-record.js';
import { describeEpisode } from './episode-description.js';
import { runUnits, segmentRun, topicTerms } from './segments.js';
import { describeProcedure, repeatedToolSequences } from './tool-sequences.js';

let clock = Date.parse('2026-06-01T10:00:00.000Z');
function at(minutes = 1): string {
  clock += minutes * 60_000;
  return new Date(clock).toISOString();
}
const user = (content: string, overrides: Partial<EventRecord> = {}): EventRecord =>
  eventRecord({ content, ts: at(), ...overrides });
const agent = (content: string): EventRecord => eventRecord({ content, role: 'agent', ts: at() });
const tool = (name: string, status: 'ok' | 'error' = 'ok'): EventRecord =>
  eventRecord({
    kind: 'tool_result',
    role: 'tool',
    content_type: 'tool_output',
    content: { ok: true },
    origin_metadata: { tool_name: name, status },
    ts: at(),
  });

describe('topic terms', () => {
  it('keeps content words, drops function words, plurals and bare numbers', () => {
    expect(topicTerms('The launch risks for Atlas in 2026')).toEqual(['launch', 'risk', 'atlas']);
    expect(topicTerms('不是简洁，而是详细的。')).toEqual(['简洁', '详细']);
  });
});

describe('segmentRun', () => {
  it('puts every unit in exactly one segment and leaves out secret events, markers and patches', () => {
    const events = [
      user('Plan the Atlas launch for March.'),
      agent('The Atlas launch plan has three phases.'),
      user('secret stuff', { sensitivity: 'secret' }),
      eventRecord({ kind: 'marker', marker: 'STEP_DONE', content: '', ts: at() }),
      user('Which phase of the Atlas launch comes first?'),
    ];
    const segments = segmentRun(runUnits(events));
    expect(segments.flat().map((unit) => unit.event.id)).toEqual([events[0]!.id, events[1]!.id, events[4]!.id]);
  });

  it('does not cut inside an exchange, only before a request', () => {
    const events = [
      user('Plan the Atlas launch.'),
      agent('Pasta carbonara recipe with pecorino cheese and guanciale.'),
      agent('Something else entirely about gardening tools.'),
    ];
    expect(segmentRun(runUnits(events))).toHaveLength(1);
  });

  it('never merges segments of two sessions', () => {
    const events = [
      user('Plan the Atlas launch.'),
      user('Plan the Atlas launch.', { session_id: 's2' }),
      user('Plan the Atlas launch.', { session_id: 's3' }),
    ];
    const segments = segmentRun(runUnits(events), { maxSegments: 1, gapMs: 30 * 60_000 });
    expect(segments.map((segment) => segment[0]!.event.session_id)).toEqual(['s1', 's2', 's3']);
  });
});

describe('describeEpisode', () => {
  it('summarises with the best sentences, at most 300 characters, and names what was asked', () => {
    const long = `I need a detailed plan for the Atlas launch covering ${'budget, staffing, marketing, '.repeat(20)}and risks?`;
    const events = [user('hi'), user(long), agent('ok')];
    const [segment] = segmentRun(runUnits(events));
    const episode = describeEpisode(segment!, []);
    expect(episode.summary.startsWith('User: I need a detailed plan')).toBe(true);
    expect(episode.summary.length).toBeLessThanOrEqual(300);
    expect(episode.candidate_meaning?.startsWith('Asked: I need a detailed plan')).toBe(true);
    expect(episode.entities).toEqual(['Atlas']);
    expect(episode.confidence).toBe(0.57);
  });

  it('describes a segment of structured tool output by its tools', () => {
    const [segment] = segmentRun(runUnits([tool('search_docs'), tool('fetch_page')]));
    expect(describeEpisode(segment!, []).summary).toBe('Tool calls: search_docs, fetch_page.');
  });
});

describe('repeatedToolSequences', () => {
  it('finds the longest recurring sequence, a repeated call as one step, failures skipped', () => {
    const events = [
      user('Deploy the staging build.'),
      tool('run_tests'),
      tool('build'),
      tool('deploy'),
      user('Deploy the production build.'),
      tool('run_tests'),
      tool('run_tests'),
      tool('lint', 'error'),
      tool('build'),
      tool('deploy'),
    ];
    const [sequence, ...rest] = repeatedToolSequences(runUnits(events));
    expect(rest).toEqual([]);
    expect(sequence!.tools).toEqual(['run_tests', 'build', 'deploy']);
    expect(sequence!.occurrences.map((occurrence) => occurrence.event_ids.length)).toEqual([3, 4]);
    expect(describeProcedure(sequence!)).toEqual({
      claim: 'To handle deploy build requests, call run_tests, then build, then deploy.',
      task: 'deploy build',
      value: {
        task_type: 'deploy_build',
        name: 'run_tests_build_deploy',
        steps: ['call run_tests', 'call build', 'call deploy'],
      },
    });
  });

  it('finds a sequence repeated within one request, but none across requests', () => {
    expect(
      repeatedToolSequences(runUnits([user('Go.'), tool('a'), tool('b'), tool('a'), tool('b')]))[0]?.tools,
    ).toEqual(['a', 'b']);
    expect(
      repeatedToolSequences(
        runUnits([
          user('Go.'),
          tool('a'),
          user('Again.'),
          tool('b'),
          user('More.'),
          tool('a'),
          user('Last.'),
          tool('b'),
        ]),
      ),
    ).toEqual([]);
  });
});
