import { describe, expect, it } from 'vitest';

import type { MemoryPacket } from '../index.js';
import { scope, tempEngramEach } from '../../test/helpers/temp-engram.js';
import { seedSession } from '../../test/helpers/compose-packets.js';

const t = tempEngramEach();

const seed = () => seedSession(t.engram);

describe('compose', () => {
  it('gives the same packet for the same inputs and the same as-of time, apart from its build id', async () => {
    await seed();
    const request = { scope, purpose: 'planner' as const, cues: { query: 'Atlas' }, as_of: '2026-06-01T12:00:00.000Z' };
    const withoutBuild = (packet: MemoryPacket) => {
      const copy = structuredClone(packet);
      delete copy.explain.determinism!['context_build_id'];
      delete copy.explain.determinism!['packet_hash'];
      return JSON.stringify(copy);
    };
    const first = await t.engram.compose(request);
    t.clock.advance(60_000);
    expect(withoutBuild(await t.engram.compose(request))).toBe(withoutBuild(first));
  });

  it('stores every build and replays it byte-identically after the stores moved on', async () => {
    await seed();
    const original = await t.engram.compose({ scope, purpose: 'planner', cues: { query: 'Atlas venue' } });
    const buildId = original.explain.determinism!['context_build_id'] as string;
    expect(buildId).toMatch(/^ctx_/);
    expect((await t.engram.builds.get(buildId)).packet_hash).toBe(original.explain.determinism!['packet_hash']);
    // The world changes: more turns, a new working state, a superseded preference, an expired note.
    t.clock.advance(60_000);
    await t.engram.commitTurn({
      scope,
      turn_id: 't3',
      messages: [
        { role: 'user', content: 'Actually I prefer detailed answers. The Atlas venue is Hall C now.' },
        { role: 'user', content: 'Temporary: door code 1234.', expires_at: '2026-06-01T12:02:00.000Z' },
      ],
      state_patch: { expected_version: 1, set: { goal: 'Prepare the Atlas launch in Hall C' } },
    });
    await t.engram.items.remember({
      scope,
      type: 'preferences',
      key: 'pref:other:venue',
      value: { scope: 'other', name: 'venue', value: 'Hall C' },
    });
    t.clock.advance(10 * 60_000);
    const replayed = await t.engram.builds.replay(buildId);
    expect(replayed.identical).toBe(true);
    expect(replayed.replay_hash).toBe(replayed.original_hash);
    expect(JSON.stringify(replayed.packet)).toBe(JSON.stringify(original));
    const later = await t.engram.compose({ scope, purpose: 'planner', cues: { query: 'Atlas venue' } });
    expect(later.short_term.working_state.goal).toBe('Prepare the Atlas launch in Hall C');
    const diff = await t.engram.builds.diff(buildId, later.explain.determinism!['context_build_id'] as string);
    expect(diff.same_packet).toBe(false);
    expect(diff.added.length).toBeGreaterThan(0);
    expect(diff.summary.join(' ')).toMatch(/selected only in/);
    expect((await t.engram.builds.list({ user_id: scope.user_id })).map((build) => build.id)).toContain(buildId);
    await expect(t.engram.builds.replay('ctx_01J00000000000000000000000')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('replays a cue search byte-identically after later turns change how rare its words are', async () => {
    await t.engram.commitTurn({
      scope,
      turn_id: 't1',
      messages: [
        { role: 'user', content: 'The walrus sleeps on the ice.' },
        { role: 'user', content: 'A pelican eats fish at noon.' },
        { role: 'user', content: 'Another pelican flies over the bay.' },
      ],
    });
    const request = { scope, purpose: 'responder' as const, cues: { query: 'walrus pelican' } };
    const original = await t.engram.compose(request);
    const buildId = original.explain.determinism!['context_build_id'] as string;
    t.clock.advance(60_000);
    const later = Array.from({ length: 6 }, (_, index) => ({
      role: 'user' as const,
      content: `Walrus number ${index} swims north.`,
    }));
    await t.engram.commitTurn({ scope, turn_id: 't2', messages: later });
    t.clock.advance(60_000);
    const replayed = await t.engram.builds.replay(buildId);
    expect(replayed.packet.short_term.key_quotes!.map((quote) => quote.quote)).toEqual(
      original.short_term.key_quotes!.map((quote) => quote.quote),
    );
    expect(replayed.identical).toBe(true);
  });

  it('replays a cue match of long-term memory byte-identically after later items change how rare its words are', async () => {
    await t.engram.items.remember({
      scope,
      type: 'preferences',
      key: 'pref:other:pet',
      value: { scope: 'other', name: 'pet', value: 'a walrus called Wally' },
    });
    await t.engram.items.remember({
      scope,
      type: 'preferences',
      key: 'pref:other:bird',
      value: { scope: 'other', name: 'bird', value: 'a pelican called Pete' },
    });
    await t.engram.items.remember({
      scope,
      type: 'preferences',
      key: 'pref:other:logo',
      value: { scope: 'other', name: 'logo', value: 'a pelican in blue' },
    });
    const request = { scope, purpose: 'responder' as const, cues: { query: 'walrus pelican' } };
    const original = await t.engram.compose(request);
    const buildId = original.explain.determinism!['context_build_id'] as string;
    t.clock.advance(60_000);
    for (let index = 0; index < 6; index += 1) {
      await t.engram.items.remember({
        scope,
        type: 'preferences',
        key: `pref:other:walrus_${index}`,
        value: { scope: 'other', name: `walrus_${index}`, value: `walrus number ${index}` },
      });
    }
    t.clock.advance(60_000);
    const replayed = await t.engram.builds.replay(buildId);
    expect(replayed.packet.explain.selected).toEqual(original.explain.selected);
    expect(replayed.identical).toBe(true);
  });
});
