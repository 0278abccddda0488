import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  ConflictError,
  createEngram,
  EngramError,
  ValidationError,
  type CommitTurnRequest,
  type StorageAdapter,
} from '../index.js';
import { scope, tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';

let t: TempEngram;
beforeEach(async () => {
  t = await tempEngram();
});
afterEach(async () => {
  await t.cleanup();
});

const session = { user_id: scope.user_id, agent_id: scope.agent_id, session_id: scope.session_id };

function turn(turnId: string, overrides: Partial<CommitTurnRequest> = {}): CommitTurnRequest {
  return {
    scope,
    turn_id: turnId,
    messages: [
      { role: 'user', content: `Question of ${turnId}: when is the Atlas launch?` },
      { role: 'assistant', content: 'The Atlas launch is on 2026-12-01.' },
    ],
    ...overrides,
  };
}

async function eventCount(): Promise<number> {
  return (await t.engram.events.list({ scope: session, limit: 1000 })).length;
}

describe('commitTurn', () => {
  it('appends messages, tool results, the state patch and markers in log order and reports what it wrote', async () => {
    const result = await t.engram.commitTurn(
      turn('t1', {
        tool_results: [
          { tool_name: 'calendar', call_id: 'c1', content: { event: 'Atlas launch', date: '2026-12-01' } },
        ],
        state_patch: { expected_version: 0, set: { goal: 'Prepare the Atlas launch' } },
        markers: ['ACT_DONE'],
      }),
    );
    expect(result.replayed).toBe(false);
    expect(result.events.map((event) => event.kind)).toEqual([
      'message',
      'message',
      'tool_result',
      'state_patch',
      'marker',
    ]);
    expect(result.events.map((event) => event.role)).toEqual(['human', 'agent', 'tool', 'agent', 'system']);
    expect(result.working_state).toEqual({ changed: true, state_version: 1 });
    const stored = await t.engram.events.list({ scope: session });
    expect(stored.map((event) => event.id)).toEqual(result.events.map((event) => event.event_id));
    expect(stored[2]!.origin_metadata).toMatchObject({ tool_name: 'calendar', call_id: 'c1' });
    expect(stored[3]!.content).toMatchObject({
      set: { goal: 'Prepare the Atlas launch' },
      from_version: 0,
      to_version: 1,
    });
    expect(stored[4]!.marker).toBe('ACT_DONE');
    expect(stored.every((event) => event.turn_id === 't1' && event.tenant_id === 'default')).toBe(true);
    expect((await t.engram.sessions.workingState(session)).goal).toBe('Prepare the Atlas launch');
  });

  it('is idempotent on turn_id: a repeat returns the first result and writes nothing', async () => {
    const first = await t.engram.commitTurn(turn('t1'));
    const before = await eventCount();
    const again = await t.engram.commitTurn(
      turn('t1', { messages: [{ role: 'user', content: 'something else entirely' }] }),
    );
    expect(again.replayed).toBe(true);
    expect(again.events).toEqual(first.events);
    expect(await eventCount()).toBe(before);
    const otherSession = await t.engram.commitTurn(turn('t1', { scope: { ...scope, session_id: 'session-2' } }));
    expect(otherSession.replayed).toBe(false);
  });

  it('writes a turn sent by several clients at once exactly once', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => t.engram.commitTurn(turn('same'))));
    expect(new Set(results.map((result) => result.events[0]!.event_id)).size).toBe(1);
    expect(await eventCount()).toBe(2);
  });

  it('refuses a stale state_version with a typed conflict and writes nothing of the turn', async () => {
    await t.engram.commitTurn(turn('t1', { state_patch: { expected_version: 0, set: { goal: 'one' } } }));
    const before = await eventCount();
    const stale = t.engram.commitTurn(turn('t2', { state_patch: { expected_version: 0, set: { goal: 'two' } } }));
    await expect(stale).rejects.toBeInstanceOf(ConflictError);
    await expect(stale).rejects.toMatchObject({
      code: 'STATE_VERSION_CONFLICT',
      field: 'state_patch.expected_version',
    });
    expect(await eventCount()).toBe(before);
    expect((await t.engram.sessions.workingState(session)).goal).toBe('one');
    // The turn was not recorded, so the corrected retry with the same turn_id goes through.
    const retry = await t.engram.commitTurn(turn('t2', { state_patch: { expected_version: 1, set: { goal: 'two' } } }));
    expect(retry.replayed).toBe(false);
    expect((await t.engram.sessions.workingState(session)).state_version).toBe(2);
  });

  it('returns the result of a dry run without writing anything', async () => {
    const dry = await t.engram.commitTurn(
      turn('t1', { dry_run: true, state_patch: { expected_version: 0, set: { goal: 'g' } } }),
    );
    expect(dry.dry_run).toBe(true);
    expect(dry.events).toHaveLength(3);
    expect(await eventCount()).toBe(0);
    expect((await t.engram.sessions.workingState(session)).state_version).toBe(0);
    expect((await t.engram.commitTurn(turn('t1'))).replayed).toBe(false);
  });

  it('commits a batch in one transaction: one bad turn and nothing is written', async () => {
    const bad = { ...turn('t2'), scope: { ...scope, user_id: '' } };
    const attempt = t.engram.commitTurns([turn('t1'), bad, turn('t3')]);
    await expect(attempt).rejects.toBeInstanceOf(ValidationError);
    await expect(attempt).rejects.toMatchObject({ field: 'turns[1].scope.user_id', rule: 'minLength' });
    const conflict = t.engram.commitTurns([
      turn('t1', { state_patch: { expected_version: 0, set: { goal: 'a' } } }),
      turn('t2', { state_patch: { expected_version: 0, set: { goal: 'b' } } }),
    ]);
    await expect(conflict).rejects.toMatchObject({ code: 'STATE_VERSION_CONFLICT' });
    expect(await eventCount()).toBe(0);
    const results = await t.engram.commitTurns([turn('t1'), turn('t2'), turn('t1')]);
    expect(results.map((result) => result.replayed)).toEqual([false, false, true]);
    expect(await eventCount()).toBe(4);
  });

  it('never indexes, summarises or shows the content of a secret event', async () => {
    await t.engram.commitTurn(
      turn('t1', { messages: [{ role: 'user', content: 'my vault code is canary-90210', sensitivity: 'secret' }] }),
    );
    const [event] = await t.engram.events.list({ scope: session });
    expect(event!.sensitivity).toBe('secret');
    expect(event!.embedding_status).toBe('skipped');
    expect(JSON.stringify(event)).not.toContain('canary-90210');
    expect(await t.engram.events.search({ scope: { user_id: scope.user_id }, query: 'canary-90210 vault' })).toEqual(
      [],
    );
    expect(JSON.stringify(await t.engram.sessions.summary(session))).not.toContain('canary');
    const withContent = await t.engram.events.list({ scope: session, include_secret_content: true });
    expect(withContent[0]!.content).toContain('canary-90210');
  });

  it('never extracts long-term memory from a secret event', async () => {
    const result = await t.engram.commitTurn(
      turn('t1', {
        messages: [
          {
            role: 'user',
            content: 'We decided to keep the vault code canary-777 in docs/secret.md',
            sensitivity: 'secret',
          },
        ],
      }),
    );
    expect(result.gate).toEqual([]);
    expect(result.items).toEqual([]);
    expect(
      JSON.stringify(await t.engram.items.list({ scope: { user_id: scope.user_id, agent_id: scope.agent_id } })),
    ).not.toContain('canary-777');
    expect(await t.engram.maintenance.embeddingBacklog()).toBe(0);
  });

  it('hides expired events and purges them', async () => {
    await t.engram.commitTurn(
      turn('t1', {
        messages: [{ role: 'user', content: 'temporary note about plums', expires_at: '2026-06-01T13:00:00.000Z' }],
      }),
    );
    expect(await eventCount()).toBe(1);
    t.clock.set('2026-06-01T14:00:00.000Z');
    expect(await eventCount()).toBe(0);
    expect(await t.engram.events.search({ scope: { user_id: scope.user_id }, query: 'plums' })).toEqual([]);
    expect(await t.engram.maintenance.purgeExpired()).toBe(1);
  });

  it('rejects malformed input with the field and the rule, at every entry point', async () => {
    await expect(t.engram.commitTurn({ scope, turn_id: 't' } as CommitTurnRequest)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await expect(t.engram.commitTurn(null as unknown as CommitTurnRequest)).rejects.toBeInstanceOf(ValidationError);
    await expect(t.engram.sessions.workingState({ user_id: 'u' } as never)).rejects.toMatchObject({
      field: 'scope.agent_id',
    });
    await expect(t.engram.events.list({ scope: session, limit: 0 })).rejects.toMatchObject({
      field: 'limit',
      rule: 'minimum',
    });
    await expect(t.engram.events.search({ scope: { user_id: 'u' }, query: '' })).rejects.toMatchObject({
      field: 'query',
    });
    await expect(t.engram.events.get('evt_missing')).rejects.toMatchObject({ field: 'event_id', rule: 'pattern' });
    await expect(t.engram.events.get('evt_01J00000000000000000000000')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(t.engram.events.get('evt_01J00000000000000000000000', '')).rejects.toMatchObject({
      field: 'tenant_id',
    });
    await expect(t.engram.builds.replay('nope')).rejects.toMatchObject({ field: 'build_id', rule: 'pattern' });
    await expect(t.engram.builds.diff('ctx_01J00000000000000000000000', 'x')).rejects.toMatchObject({ field: 'b' });
    await expect(t.engram.builds.list({ cursor: 'evt_01J00000000000000000000000' })).rejects.toMatchObject({
      field: 'cursor',
    });
    await expect(t.engram.builds.list({ limit: 0 })).rejects.toMatchObject({ field: 'limit', rule: 'range' });
    await expect(t.engram.maintenance.runEmbeddings(-1)).rejects.toMatchObject({ field: 'max', rule: 'range' });
  });

  it('fails with a typed error after close', async () => {
    await t.engram.close();
    await expect(t.engram.commitTurn(turn('t1'))).rejects.toSatisfy((error: unknown) => EngramError.isInstance(error));
  });
});

describe('commitTurns', () => {
  it('reports a turn repeated inside one batch as a replay of the first, with the same summary report', async () => {
    const [first, second] = await t.engram.commitTurns([turn('dup'), turn('dup')]);
    expect(first!.replayed).toBe(false);
    expect(second!.replayed).toBe(true);
    expect(second!.events).toEqual(first!.events);
    expect(second!.summary).toEqual(first!.summary);
    expect(first!.summary.version).toBe(1);
  });
});

/** The engram under test on a store whose writes call `before` first (another writer, a fault). */
async function engramOnStore(before: (ops: Parameters<StorageAdapter['write']>[0]) => Promise<void>) {
  const storage = new Proxy(t.storage, {
    get(target, property, receiver) {
      if (property !== 'write') return Reflect.get(target, property, receiver) as unknown;
      return async (ops: Parameters<StorageAdapter['write']>[0]) => {
        await before(ops);
        await target.write(ops);
      };
    },
  });
  return createEngram({ store: storage, embeddings: { provider: 'none' } });
}

describe('commitTurn and conflicts', () => {
  it('names the fields of a batch by their turn, also a lone turn of a batch and a conflict found while planning', async () => {
    const bad = { ...turn('t1'), scope: { ...scope, user_id: '' } };
    await expect(t.engram.commitTurns([bad])).rejects.toMatchObject({
      field: 'turns[0].scope.user_id',
      rule: 'minLength',
    });
    await expect(t.engram.commitTurn(bad)).rejects.toMatchObject({ field: 'scope.user_id', rule: 'minLength' });
    const stale = t.engram.commitTurns([
      turn('t1', { state_patch: { expected_version: 0, set: { goal: 'a' } } }),
      turn('t2', { state_patch: { expected_version: 0, set: { goal: 'b' } } }),
    ]);
    await expect(stale).rejects.toMatchObject({ field: 'turns[1].state_patch.expected_version', origin: 'caller' });
    await expect(stale).rejects.toThrow(
      'turns[1].state_patch.expected_version: expected version 0 but the stored version is 1',
    );
    const blankObjective = t.engram.commitTurns([turn('t1'), turn('t2', { run: { objective: '  ' } })]);
    await expect(blankObjective).rejects.toMatchObject({ field: 'turns[1].run.objective', rule: 'minLength' });
    await expect(t.engram.commitTurn(turn('t2', { run: { objective: '  ' } }))).rejects.toMatchObject({
      field: 'run.objective',
    });
  });

  it("says a stale expected version is the caller's to fix, not one to send again", async () => {
    await t.engram.commitTurn(turn('t1', { state_patch: { expected_version: 0, set: { goal: 'one' } } }));
    const stale = t.engram.commitTurn(turn('t2', { state_patch: { expected_version: 0, set: { goal: 'two' } } }));
    await expect(stale).rejects.toMatchObject({ code: 'STATE_VERSION_CONFLICT', origin: 'caller', isRetryable: false });
  });

  it('plans again after any conflict another writer caused, whatever field it names', async () => {
    let raced = 0;
    const engram = await engramOnStore(async () => {
      raced += 1;
      if (raced === 1)
        throw new ConflictError('reflection.trace_id: trc_1 already exists; another writer stored it first', {
          field: 'reflection.trace_id',
          origin: 'concurrent',
        });
    });
    const result = await engram.commitTurn(turn('t1'));
    expect(raced).toBe(2);
    expect(result.replayed).toBe(false);
    expect(await eventCount()).toBe(2);
  });

  it("turns a state write that lost the race into the caller's conflict once the patch is planned again", async () => {
    const other = await createEngram({ store: `sqlite:${t.path}`, embeddings: { provider: 'none' } });
    let raced = false;
    // Between this turn's planning and its write, another writer moves the state to version 1.
    const engram = await engramOnStore(async (ops) => {
      if (raced || !ops.some((op) => op.op === 'put_working_state')) return;
      raced = true;
      await other.sessions.updateWorkingState({ scope, expected_version: 0, set: { goal: 'the other writer' } });
    });
    try {
      const attempt = engram.commitTurn(
        turn('t1', { state_patch: { expected_version: 0, set: { goal: 'this writer' } } }),
      );
      await expect(attempt).rejects.toMatchObject({
        code: 'STATE_VERSION_CONFLICT',
        field: 'state_patch.expected_version',
        origin: 'caller',
        expected: 0,
        actual: 1,
      });
      expect((await t.engram.sessions.workingState(session)).goal).toBe('the other writer');
    } finally {
      await other.close();
    }
  });
});

describe('updateWorkingState', () => {
  it('returns the state it wrote, even when another writer of the store writes the next version before it returns', async () => {
    const other = await createEngram({ store: `sqlite:${t.path}`, embeddings: { provider: 'none' } });
    let interleaved = false;
    // The engram under test, on the same file: right after its working-state write commits, the
    // other one (another process, say) writes the next version.
    const storage = new Proxy(t.storage, {
      get(target, property, receiver) {
        if (property !== 'write') return Reflect.get(target, property, receiver) as unknown;
        return async (ops: Parameters<StorageAdapter['write']>[0]) => {
          await target.write(ops);
          if (!interleaved && ops.some((op) => op.op === 'put_working_state')) {
            interleaved = true;
            await other.sessions.updateWorkingState({
              scope,
              expected_version: 1,
              append: { decisions: [{ statement: 'the other writer' }] },
            });
          }
        };
      },
    });
    const engram = await createEngram({ store: storage, embeddings: { provider: 'none' } });
    try {
      const state = await engram.sessions.updateWorkingState({
        scope,
        expected_version: 0,
        append: { decisions: [{ statement: 'this writer' }] },
      });
      expect(interleaved).toBe(true);
      expect(state.state_version).toBe(1);
      expect(state.decisions.map((decision) => decision.statement)).toEqual(['this writer']);
      expect((await t.engram.sessions.workingState(session)).state_version).toBe(2);
    } finally {
      await other.close();
    }
  });
});
