import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { MemoryItem } from '../index.js';
import { newId } from '../util/ids.js';
import { chunkOp } from '../items/chunk.js';
import { scope, tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';
import { caught } from '../testing/expect-code.js';

let t: TempEngram;
beforeEach(async () => {
  t = await tempEngram('2026-11-20T09:00:00.000Z');
});
afterEach(async () => {
  await t.cleanup();
});

const owner = { user_id: scope.user_id, agent_id: scope.agent_id };

/** A version as an earlier release of the rules wrote it, cited to `eventId`. */
async function writtenByOldRules(
  key: string,
  type: MemoryItem['type'],
  value: Record<string, unknown>,
  eventId: string,
  previous?: MemoryItem,
): Promise<MemoryItem> {
  const now = t.clock.now().toISOString();
  const item: MemoryItem = {
    id: newId('mem'),
    tenant_id: 'default',
    user_id: scope.user_id,
    agent_id: scope.agent_id,
    scope_level: 'user',
    type,
    key,
    value,
    confidence: 0.6,
    status: 'active',
    sensitivity: 'normal',
    valid_from: now,
    valid_to: null,
    salience: { consequence: 0.5, emotional_charge: 0.5, reusability: 0.5 },
    version: (previous?.version ?? 0) + 1,
    supersedes: previous?.id ?? null,
    source_event_ids: [eventId],
    evidence_refs: [{ kind: 'event', ref: eventId }],
    provenance: { extractor: 'rules', rule: 'en.task.imperative' },
    tags: [],
    entities: [],
    recorded_at: now,
    updated_at: now,
    ended_at: null,
  };
  await t.storage.write([{ op: 'put_item', item }, chunkOp(item)]);
  return item;
}

const active = async () => (await t.engram.items.list({ scope: owner })).map((item) => item.key).sort();

describe('reextract', () => {
  it("retracts what earlier rules wrote from the assistant's advice, keeps deliberate writes, and is a no-op the second time", async () => {
    await t.engram.commitTurn({
      scope,
      turn_id: 't1',
      messages: [
        { role: 'user', content: "I'm allergic to peanuts and I need to renew my passport before the trip." },
        { role: 'assistant', content: 'Pack your wallet, cash and cards the night before.' },
      ],
    });
    const [, advice] = await t.engram.events.list({ scope: { user_id: scope.user_id }, order: 'asc' });
    t.clock.advance(60_000);
    const junk = await writtenByOldRules(
      'task:general:pack_wallet_cash_cards',
      'tasks',
      { task_id: 'pack_wallet_cash_cards', title: 'Pack your wallet, cash and cards', status: 'todo' },
      advice!.id,
    );
    await t.engram.items.remember({
      scope: owner,
      type: 'preferences',
      key: 'pref:writing:tone',
      value: { scope: 'writing', name: 'tone', value: 'warm' },
    });
    const before = await active();
    expect(before).toContain(junk.key);
    t.clock.advance(60_000);
    const beforeReextract = t.clock.now().toISOString();
    t.clock.advance(60_000);

    const planned = await t.engram.items.reextract({ user_id: scope.user_id, dry_run: true });
    expect(planned).toMatchObject({ turns: 1, dry_run: true, kept: ['pref:writing:tone'] });
    expect(planned.items).toEqual([expect.objectContaining({ action: 'retracted', key: junk.key, rule: 'reextract' })]);
    expect(await active()).toEqual(before);

    const done = await t.engram.items.reextract({ user_id: scope.user_id });
    expect(done.items).toEqual(planned.items.map((diff) => ({ ...diff })));
    const after = await active();
    expect(after).not.toContain(junk.key);
    expect(after).toContain('pref:writing:tone');
    expect(after.some((key) => key.startsWith('task:') && key.includes('passport'))).toBe(true);
    // History keeps the retracted version; a packet as of before still sees memory as it was then.
    const [version] = await t.engram.items.history({ scope: owner, key: junk.key });
    expect(version).toMatchObject({ status: 'retracted' });
    const then = await t.engram.compose({ scope, purpose: 'planner', as_of: beforeReextract });
    expect(then.long_term.facts.map((fact) => fact.fact_key)).toContain(junk.key);

    expect((await t.engram.items.reextract({ user_id: scope.user_id })).items).toEqual([]);
  });

  it('writes a changed value as a new version with provenance, citing the turn that said it', async () => {
    await t.engram.commitTurn({ scope, turn_id: 't1', messages: [{ role: 'user', content: 'I live in Lisbon now.' }] });
    const [said] = await t.engram.events.list({ scope: { user_id: scope.user_id }, order: 'asc' });
    const [profile] = await t.engram.items.history({ scope: owner, key: 'profile:user' });
    // An earlier release wrote a wrong value over it.
    t.clock.advance(60_000);
    await t.storage.write([
      {
        op: 'set_item_status',
        tenant_id: 'default',
        item_id: profile!.id,
        expected_status: 'active',
        status: 'superseded',
        ended_at: t.clock.now().toISOString(),
        updated_at: t.clock.now().toISOString(),
      },
    ]);
    await writtenByOldRules(
      'profile:user',
      'profile',
      { subject: 'user', facts: [{ k: 'location', v: 'Berlin' }] },
      said!.id,
      profile,
    );
    t.clock.advance(60_000);

    const result = await t.engram.items.reextract({ user_id: scope.user_id });
    const updated = result.items.find((diff) => diff.action === 'updated');
    expect(updated).toMatchObject({ key: 'profile:user', rule: expect.stringMatching(/^reextract:/) });
    const versions = await t.engram.items.history({ scope: owner, key: 'profile:user' });
    const current = versions.filter((item) => item.status === 'active');
    expect(current).toHaveLength(1);
    expect(current[0]!.value['facts']).toEqual([expect.objectContaining({ k: 'location', v: 'Lisbon' })]);
    expect(current[0]!.provenance).toMatchObject({ extractor: 'rules', rule: expect.stringMatching(/^reextract:/) });
    expect(current[0]!.source_event_ids).toEqual([said!.id]);
  });

  it('refuses a bad request with the field and the rule', async () => {
    expect(await caught(t.engram.items.reextract({ user_id: '' }))).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'user_id',
    });
    expect(await caught(t.engram.items.reextract({ user_id: 'u', dry_run: 'yes' } as never))).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'dry_run',
    });
    expect(await caught(t.engram.items.reextract({ user_id: 'u', everything: true } as never))).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'everything',
    });
  });
});
