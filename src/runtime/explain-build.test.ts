import { afterEach, describe, expect, it } from 'vitest';

import { EngramError } from '../spec/errors.js';
import type { MemoryPacket } from '../spec/packet.js';
import type { EmbeddingModel } from '../spec/providers.js';
import { tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';
import { topicModel } from '../testing/topic-model.js';
import type { BuildExplanation } from './explain-build.js';

/** Topics a question and a turn can share without sharing a word. */
const TOPICS: ReadonlyArray<readonly string[]> = [
  ['doctor', 'doctors', 'dermatologist', 'physician', 'physicians', 'dentist', 'clinic'],
  ['car', 'bike', 'train', 'commute', 'bus'],
  ['garden', 'tomatoes', 'plants', 'seeds'],
];
const topics = (): EmbeddingModel => topicModel(TOPICS);

const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
const buildOf = (packet: MemoryPacket) => packet.explain.determinism!['context_build_id'] as string;

/** The ranks a passage's rule names: `cue.hybrid(words #2, meaning #1)` → { words: 2, meaning: 1 }. */
function ranksInRule(rule: string): Record<string, number> {
  return Object.fromEntries(
    [...rule.matchAll(/(words|meaning|time) #(\d+)/gu)].map((match) => [match[1]!, Number(match[2])]),
  );
}

function signalRanks(explanation: BuildExplanation): Record<string, number> {
  return Object.fromEntries(
    Object.entries(explanation.signals).flatMap(([name, signal]) =>
      signal.rank === null ? [] : [[name, signal.rank]],
    ),
  );
}

describe('explainBuild: why a record is, or is not, in a packet', () => {
  let t: TempEngram;
  let turn = 0;
  afterEach(async () => {
    await t.cleanup();
  });

  async function say(
    content: string,
    options: { user?: string; sensitivity?: 'secret' | 'private'; session?: string; ts?: string } = {},
  ): Promise<string> {
    t.clock.advance(60_000);
    turn += 1;
    const result = await t.engram.commitTurn({
      scope: { ...scope, user_id: options.user ?? scope.user_id, session_id: options.session ?? scope.session_id },
      turn_id: `t${turn}`,
      ...(options.ts === undefined ? {} : { ts: options.ts }),
      messages: [
        { role: 'user', content, ...(options.sensitivity === undefined ? {} : { sensitivity: options.sensitivity }) },
      ],
    });
    return result.events[0]!.event_id;
  }

  async function composeFor(query: string, maxTokens = 2000): Promise<{ packet: MemoryPacket; build: string }> {
    t.clock.advance(60_000);
    const packet = await t.engram.compose({
      scope,
      purpose: 'responder',
      cues: { query },
      budget: { max_tokens: maxTokens },
    });
    return { packet, build: buildOf(packet) };
  }

  it('places a selected passage in its section with its rule, and each signal ranks it as the rule says', async () => {
    t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: topics() });
    await say('The garden needs new seeds for the tomatoes.');
    const derm = await say('Saw the dermatologist about the rash on my arm.');
    await say('The train was late again on my commute.');
    await t.engram.maintenance.runEmbeddings();
    const { packet, build } = await composeFor('which dermatologist did I see about the rash?');
    const why = await t.engram.builds.explain({ build_id: build, id: derm });
    expect(why).toMatchObject({
      in_packet: true,
      section: 'key_quotes',
      verdict: 'selected',
      filter: null,
      kind: 'event',
      as_of: packet.meta.generated_at,
    });
    expect(packet.explain.selected).toContain(`key_quotes:${derm}: ${why.rule}`);
    // The ranks re-run as of the build are the ones compose wrote into the rule.
    expect(signalRanks(why)).toEqual(ranksInRule(why.rule!));
    expect(why.signals['words']).toEqual({ used: true, rank: 1 });
    expect(why.fused_rank).toBe(1);
  });

  it('finds a passage that shares no word with the question by meaning alone', async () => {
    t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: topics() });
    const derm = await say('Saw the dermatologist about the rash on my arm.');
    await say('The train was late again on my commute.');
    await t.engram.maintenance.runEmbeddings();
    const { build } = await composeFor('Which physicians have I visited?');
    const why = await t.engram.builds.explain({ build_id: build, id: derm });
    expect(why.verdict).toBe('selected');
    expect(why.signals['words']).toEqual({ used: true, rank: null });
    expect(why.signals['meaning']).toEqual({ used: true, rank: 1 });
    expect(why.rule).toContain('meaning #1');
    expect(why.notes).toEqual([]);
  });

  it('ranks a passage the time the question names found as the rule says', async () => {
    t = await tempEngram('2026-06-30T12:00:00.000Z', { embeddings: topics() });
    await say('Saw the dermatologist about the rash on my arm.', { ts: '2026-05-10T09:00:00.000Z' });
    const seeds = await say('Bought seeds for the garden.', { ts: '2026-06-02T09:00:00.000Z' });
    await say('The train was late again on my commute.', { ts: '2026-06-25T09:00:00.000Z' });
    await t.engram.maintenance.runEmbeddings();
    t.clock.advance(60_000);
    const packet = await t.engram.compose({
      scope,
      purpose: 'responder',
      cues: { query: 'I mentioned something four weeks ago, what was it?' },
      reference_time: '2026-06-30T12:00:00.000Z',
      budget: { max_tokens: 600 },
    });
    const why = await t.engram.builds.explain({ build_id: buildOf(packet), id: seeds });
    expect(why).toMatchObject({ verdict: 'selected', signals: { time: { used: true, rank: 1 } } });
    expect(signalRanks(why)).toEqual(ranksInRule(why.rule!));
  });

  it('says a passage past the read depth is below it, with its fused rank and the depth compose read', async () => {
    t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    const ids: string[] = [];
    for (let index = 0; index < 60; index += 1)
      ids.push(await say(`Deploy note ${index}: the deploy of service ${index} went out on schedule.`));
    const { packet, build } = await composeFor('deploy', 300);
    const filters = packet.explain.filters as Record<string, number>;
    const readDepth = filters['cue_matches_top_k']! + filters['cue_matches_spare_top_k']!;
    expect(readDepth).toBeLessThan(60);
    const explanations = await Promise.all(ids.map((id) => t.engram.builds.explain({ build_id: build, id })));
    // Every passage matches by words alone, so its fused rank is its words rank, and all 60 are ranked.
    expect(explanations.map((why) => why.fused_rank).sort((a, b) => a! - b!)).toEqual(ids.map((_, index) => index + 1));
    for (const why of explanations) expect(why.signals['words']!.rank).toBe(why.fused_rank);
    const below = explanations.filter((why) => why.verdict === 'below_read_depth');
    expect(below.length).toBeGreaterThan(0);
    for (const why of below) {
      expect(why).toMatchObject({ in_packet: false, read_depth: readDepth, filter: null });
      expect(why.fused_rank).toBeGreaterThan(readDepth);
      expect(why.detail).toContain(`its fused rank is ${why.fused_rank}; compose read the first ${readDepth}`);
    }
    for (const why of explanations) {
      // Past the read depth a passage is in the packet only through the session's summary or key quotes.
      if (why.fused_rank! > readDepth) expect(why.in_packet || why.verdict === 'below_read_depth', why.id).toBe(true);
      if (why.in_packet && why.rule?.startsWith('cue.') === true) expect(why.fused_rank).toBeLessThanOrEqual(readDepth);
      // The ones compose read are placed, or left out as the packet recorded.
      if (why.fused_rank! <= readDepth && !why.in_packet) expect(why.verdict).toBe('over_budget');
    }
  });

  it('copies the packet’s omission for a passage over budget', async () => {
    t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    for (let index = 0; index < 12; index += 1) {
      await say(
        `Budget review ${index}: ${'the quarterly budget review covered hiring, travel, hardware and the support contracts in detail. '.repeat(4)}`,
      );
    }
    const { packet, build } = await composeFor('budget review', 300);
    const omitted = packet.explain.omitted.find(
      (entry) => entry.reason === 'over_budget' && entry.item.startsWith('key_quotes:evt_'),
    );
    expect(omitted).toBeDefined();
    const id = omitted!.item.slice('key_quotes:'.length);
    const why = await t.engram.builds.explain({ build_id: build, id });
    expect(why).toMatchObject({
      in_packet: false,
      verdict: 'over_budget',
      filter: null,
      omissions: expect.arrayContaining([expect.objectContaining({ item: omitted!.item, reason: 'over_budget' })]),
    });
    expect(why.detail).toBe(`${omitted!.item}: ${String(omitted!['detail'])}`);
    expect(why.signals['words']!.rank).not.toBeNull();
  });

  it('names the filter that left a record out: secret, another user, later than the build, unknown', async () => {
    t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    await say('The vault code for the office is kept by Lee.');
    const secret = await say('The vault code is 4411.', { sensitivity: 'secret' });
    const other = await say('My vault code reminder: ask Lee.', { user: 'bob' });
    const { build } = await composeFor('vault code');
    const later = await say('New vault code from Lee tomorrow.');
    const explain = (id: string) => t.engram.builds.explain({ build_id: build, id });
    expect(await explain(secret)).toMatchObject({ in_packet: false, verdict: 'filtered', filter: 'sensitivity' });
    expect(await explain(other)).toMatchObject({ in_packet: false, verdict: 'filtered', filter: 'scope' });
    expect(await explain(later)).toMatchObject({ in_packet: false, verdict: 'filtered', filter: 'as_of' });
    expect(await explain('evt_01J0000000000000000000000A')).toMatchObject({ verdict: 'filtered', filter: 'not_found' });
    // A turn of another session of the same user is searched, and matched.
    const elsewhere = await say('The vault code list lives in the safe.', { session: 's2' });
    const { build: second } = await composeFor('vault code list safe');
    expect((await t.engram.builds.explain({ build_id: second, id: elsewhere })).verdict).toBe('selected');
  });

  it('says no signal matched an unrelated passage, and that a build without cue text searched nothing', async () => {
    t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    await say('The deploy went out on schedule.');
    // In another session: the build's own session summary and key quotes do not quote it.
    const garden = await say('The tomatoes in the garden are ripe.', { session: 's2' });
    const { build } = await composeFor('deploy schedule');
    expect(await t.engram.builds.explain({ build_id: build, id: garden })).toMatchObject({
      verdict: 'not_matched',
      signals: { words: { used: true, rank: null } },
    });
    t.clock.advance(1000);
    const bare = buildOf(await t.engram.compose({ scope, purpose: 'planner' }));
    expect(await t.engram.builds.explain({ build_id: bare, id: garden })).toMatchObject({
      verdict: 'not_searched',
      signals: { words: { used: false, rank: null } },
    });
  });

  it('explains items: a fact placed by the cues, another user’s item, one retracted before the build', async () => {
    t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    const writer = { user_id: 'mira', agent_id: 'assistant' };
    const [tone] = await t.engram.items.remember({
      scope: writer,
      type: 'preferences',
      key: 'pref:writing:tone',
      value: { scope: 'writing', name: 'tone', value: 'concise' },
    });
    const [theirs] = await t.engram.items.remember({
      scope: { ...writer, user_id: 'bob' },
      type: 'preferences',
      key: 'pref:writing:tone',
      value: { scope: 'writing', name: 'tone', value: 'formal' },
    });
    const [goal] = await t.engram.items.remember({
      scope: writer,
      type: 'goals',
      key: 'goal:atlas:launch',
      value: { project: 'atlas', name: 'launch', description: 'Launch Atlas in June' },
    });
    t.clock.advance(1000);
    await t.engram.items.forget({ scope: writer, key: 'goal:atlas:launch' });
    const { build } = await composeFor('what writing tone do I prefer?');
    const placed = await t.engram.builds.explain({ build_id: build, id: tone!.item_id });
    expect(placed).toMatchObject({ kind: 'item', in_packet: true, section: 'facts', verdict: 'selected' });
    expect(await t.engram.builds.explain({ build_id: build, id: theirs!.item_id })).toMatchObject({
      verdict: 'filtered',
      filter: 'scope',
    });
    expect(await t.engram.builds.explain({ build_id: build, id: goal!.item_id })).toMatchObject({
      verdict: 'filtered',
      filter: 'status',
    });
  });

  it('refuses a malformed id and answers NOT_FOUND for an unknown build', async () => {
    t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    const { build } = await composeFor('anything');
    await expect(
      t.engram.builds.explain({ build_id: build, id: 'cand_01J0000000000000000000000A' }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'id' });
    await expect(
      t.engram.builds.explain({ build_id: 'ctx_01J0000000000000000000000A', id: 'evt_01J0000000000000000000000A' }),
    ).rejects.toSatisfy(
      (error: unknown) => EngramError.isInstance(error) && error.code === 'NOT_FOUND' && error.field === 'build_id',
    );
    await expect(
      t.engram.builds.explain({ tenant_id: 'elsewhere', build_id: build, id: 'evt_01J0000000000000000000000A' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
