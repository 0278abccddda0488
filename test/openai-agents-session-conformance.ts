// The behaviour every EngramSession shows whatever reaches Engram (the library, or the HTTP
// client): the Session interface of @openai/agents-core, answered as the SDK's own MemorySession
// answers the same calls, with the history kept in Engram's episodic log.

import { MemorySession, type AgentInputItem, type Session } from '@openai/agents-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Engram } from '../src/index.js';
import { EngramSession, type EngramSource } from '../src/integrations/openai-agents/index.js';

export interface SessionBackend {
  /** What the session is given: the Engram itself, or a client of it. */
  source: EngramSource;
  /** The Engram behind it, for looking at its log and memory. */
  engram: Engram;
  destroy(): Promise<void>;
}

/** One item of each shape the runner stores: messages, a function call with its result, reasoning. */
export const ITEMS: AgentInputItem[] = [
  { type: 'message', role: 'user', content: 'I am vegetarian. What is the weather in Porto?' },
  {
    type: 'reasoning',
    id: 'rs_1',
    content: [{ type: 'input_text', text: 'The user wants the weather.' }],
    providerData: { encrypted: 'x' },
  },
  {
    type: 'function_call',
    id: 'fc_1',
    callId: 'call_1',
    name: 'get_weather',
    arguments: '{"city":"Porto"}',
    status: 'completed',
  },
  {
    type: 'function_call_result',
    name: 'get_weather',
    callId: 'call_1',
    status: 'completed',
    output: { type: 'text', text: 'Sunny, 24 °C' },
  },
  {
    type: 'message',
    role: 'assistant',
    id: 'msg_1',
    status: 'completed',
    content: [{ type: 'output_text', text: 'It is sunny in Porto, 24 °C.', providerData: { annotations: [] } }],
  },
  {
    type: 'message',
    role: 'user',
    content: [
      { type: 'input_text', text: 'Thanks!' },
      { type: 'input_image', image: 'https://example.com/porto.png' },
    ],
  },
  { role: 'system', content: 'Be brief.' },
];

/** Runs the same calls on a session and on the SDK's MemorySession, and returns both answers. */
async function both<T>(
  engramSession: Session,
  memorySession: Session,
  call: (session: Session) => Promise<T>,
): Promise<[T, T]> {
  return [await call(engramSession), await call(memorySession)];
}

/**
 * Runs the session's behaviour tests against Engrams `create` opens.
 *
 * @example
 * sessionConformance('library', async () => ({ source: engram, engram, destroy }));
 */
export function sessionConformance(name: string, create: () => Promise<SessionBackend>): void {
  describe(`EngramSession (${name})`, () => {
    let t: SessionBackend;
    let session: EngramSession;
    let reference: MemorySession;
    beforeEach(async () => {
      t = await create();
      session = new EngramSession({ engram: t.source, userId: 'mira', agentId: 'assistant', sessionId: 'chat-1' });
      reference = new MemorySession({ sessionId: 'chat-1' });
    });
    afterEach(async () => {
      await t.destroy();
    });

    it('names its session, a new UUID when none is given', async () => {
      expect(await session.getSessionId()).toBe('chat-1');
      expect(
        await new EngramSession({ engram: t.source, userId: 'mira', agentId: 'assistant' }).getSessionId(),
      ).toMatch(/^[0-9a-f-]{36}$/u);
    });

    it('gives every item back exactly, in order, across calls and session objects', async () => {
      await both(session, reference, (s) => s.addItems(ITEMS.slice(0, 5)));
      await both(session, reference, (s) => s.addItems([]));
      await both(session, reference, (s) => s.addItems(ITEMS.slice(5)));
      const [mine, theirs] = await both(session, reference, (s) => s.getItems());
      expect(mine).toStrictEqual(ITEMS);
      expect(mine).toStrictEqual(theirs);
      const again = new EngramSession({ engram: t.source, userId: 'mira', agentId: 'assistant', sessionId: 'chat-1' });
      expect(await again.getItems()).toStrictEqual(ITEMS);
      for (const limit of [0, 2, 100]) {
        const [limited, expected] = await both(session, reference, (s) => s.getItems(limit));
        expect(limited).toStrictEqual(expected);
      }
    });

    it('pops the newest item and clears, as MemorySession does, keeping the log whole', async () => {
      expect(await session.popItem()).toBeUndefined();
      await both(session, reference, (s) => s.addItems(ITEMS.slice(0, 3)));
      const [popped, expected] = await both(session, reference, (s) => s.popItem());
      expect(popped).toStrictEqual(expected);
      await both(session, reference, (s) => s.addItems(ITEMS.slice(4, 5)));
      const [afterPop, expectedAfterPop] = await both(session, reference, (s) => s.getItems());
      expect(afterPop).toStrictEqual(expectedAfterPop);
      expect(afterPop).toStrictEqual([ITEMS[0], ITEMS[1], ITEMS[4]]);

      await both(session, reference, (s) => s.clearSession());
      expect(await session.getItems()).toEqual([]);
      await both(session, reference, (s) => s.addItems(ITEMS.slice(5, 6)));
      const [afterClear, expectedAfterClear] = await both(session, reference, (s) => s.getItems());
      expect(afterClear).toStrictEqual(expectedAfterClear);

      // Nothing was deleted: each edit ended a run, and the history went on in the next.
      const events = await t.engram.events.list({ scope: { user_id: 'mira', session_id: 'chat-1' }, limit: 1000 });
      expect(events.map((event) => [event.run_id, event.marker ?? event.kind])).toEqual([
        ['chat-1', 'message'],
        ['chat-1', 'message'],
        ['chat-1', 'message'],
        ['chat-1', 'RUN_END'],
        ['chat-1.2', 'message'],
        ['chat-1.2', 'RUN_END'],
        ['chat-1.3', 'message'],
      ]);
    });

    it('commits what the user says as turns Engram learns from, for the next session to compose', async () => {
      await session.addItems([ITEMS[0]!, ITEMS[4]!]);
      const events = await t.engram.events.list({ scope: { user_id: 'mira', session_id: 'chat-1' } });
      expect(events.map((event) => [event.role, event.content])).toEqual([
        ['human', 'I am vegetarian. What is the weather in Porto?'],
        ['agent', 'It is sunny in Porto, 24 °C.'],
      ]);
      const next = new EngramSession({ engram: t.source, userId: 'mira', agentId: 'assistant', sessionId: 'chat-2' });
      expect(await next.getItems()).toEqual([]);
      const { text, packet } = await next.compose({ query: 'What should I cook tonight?' });
      expect(text).toContain('vegetarian');
      expect(packet.meta.purpose).toBe('responder');
    });
  });
}
