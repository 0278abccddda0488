import { APICallError, generateText, jsonSchema, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';

import type { EventRecord } from '../../index.js';
import { generated, streamed, systemPromptOf, toolCall } from '../../../test/helpers/ai-sdk-models.js';
import { tempEngramEach } from '../../../test/helpers/temp-engram.js';
import { engramMiddleware, withEngram, type EngramMiddlewareOptions } from './middleware.js';

const user = { user_id: 'mira', agent_id: 'chef' };

const current = tempEngramEach();

function withMemory(model: MockLanguageModelV3, options: Partial<EngramMiddlewareOptions> = {}) {
  return withEngram(model, { engram: current.engram, scope: user, ...options });
}

async function sessionEvents(sessionId: string): Promise<EventRecord[]> {
  return current.engram.events.list({ scope: { ...user, session_id: sessionId } });
}

// The log keeps the stored role names: human for the user, agent for the assistant.
const said = (events: EventRecord[]) => events.map((event) => [event.role, event.kind, event.content]);

describe('engramMiddleware with generateText', () => {
  it("carries what session 1 said into the system prompt of session 2's call", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: generated([{ type: 'text', text: 'Noted, nothing with peanuts.' }]),
    });
    await generateText({
      model: withMemory(model),
      system: 'You are a cooking assistant.',
      prompt: "I'm allergic to peanuts.",
      providerOptions: { engram: { session_id: 'week-1' } },
    });
    await generateText({
      model: withMemory(model),
      system: 'You are a cooking assistant.',
      prompt: 'Suggest a snack for the hike.',
      providerOptions: { engram: { session_id: 'week-2' } },
    });

    const system = systemPromptOf(model.doGenerateCalls[1]!);
    expect(system.startsWith('You are a cooking assistant.\n\n# Memory for the responder')).toBe(true);
    expect(system).toContain('allergic to peanuts');
    expect(model.doGenerateCalls[1]!.prompt.filter((message) => message.role === 'system')).toHaveLength(1);
    expect(said(await sessionEvents('week-1'))).toEqual([
      ['human', 'message', "I'm allergic to peanuts."],
      ['agent', 'message', 'Noted, nothing with peanuts.'],
    ]);
    const [first] = await sessionEvents('week-2');
    expect(first).toMatchObject({ run_id: 'week-2', turn_id: expect.stringMatching(/^ai-sdk:1:[0-9a-f]{32}$/u) });
  });

  it('commits a call sent again once: an SDK retry after a failure, and the same conversation resent', async () => {
    let calls = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        calls += 1;
        if (calls === 1)
          throw new APICallError({
            message: 'overloaded',
            url: 'http://model.test',
            requestBodyValues: {},
            statusCode: 529,
            isRetryable: true,
          });
        return generated([{ type: 'text', text: 'Tuesday at nine.' }]);
      },
    });
    const messages = [
      { role: 'user' as const, content: 'When is my dentist appointment?' },
      { role: 'assistant' as const, content: 'I do not know yet.' },
      { role: 'user' as const, content: 'It is on Tuesday at nine. When is it?' },
    ];
    const call = () =>
      generateText({
        model: withMemory(model),
        messages,
        maxRetries: 1,
        providerOptions: { engram: { session_id: 'dentist' } },
      });

    await call();
    expect(calls).toBe(2);
    const before = await sessionEvents('dentist');
    expect(said(before)).toEqual([
      ['human', 'message', 'It is on Tuesday at nine. When is it?'],
      ['agent', 'message', 'Tuesday at nine.'],
    ]);
    await call();
    expect(await sessionEvents('dentist')).toEqual(before);

    // The next message of the conversation is a new turn.
    await generateText({
      model: withMemory(model),
      messages: [...messages, { role: 'assistant', content: 'Tuesday at nine.' }, { role: 'user', content: 'Thanks!' }],
      providerOptions: { engram: { session_id: 'dentist' } },
    });
    const after = await sessionEvents('dentist');
    expect(after).toHaveLength(4);
    expect(new Set(after.map((event) => event.turn_id)).size).toBe(2);
  });

  it('commits a tool loop call by call: the user message with the tool call, then the tool result with the answer', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        generated([toolCall('call-1', 'weather', { city: 'Lisbon' })]),
        generated([{ type: 'text', text: 'Sunny, 24 °C: a picnic works.' }]),
      ],
    });
    const weather = tool({
      description: 'The weather in a city.',
      inputSchema: jsonSchema<{ city: string }>({
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
      }),
      execute: async ({ city }) => ({ city, sky: 'sunny', celsius: 24 }),
    });
    const result = await generateText({
      model: withMemory(model),
      tools: { weather },
      stopWhen: stepCountIs(3),
      prompt: 'Is it picnic weather in Lisbon?',
      providerOptions: { engram: { session_id: 'picnic' } },
    });

    expect(result.text).toBe('Sunny, 24 °C: a picnic works.');
    expect(systemPromptOf(model.doGenerateCalls[1]!)).toContain('# Memory for the responder');
    const events = await sessionEvents('picnic');
    expect(events.map((event) => [event.role, event.kind, event.content_type, event.content])).toEqual([
      ['human', 'message', 'text', 'Is it picnic weather in Lisbon?'],
      ['agent', 'message', 'command', 'weather({"city":"Lisbon"})'],
      // A turn keeps its messages before its tool results.
      ['agent', 'message', 'text', 'Sunny, 24 °C: a picnic works.'],
      ['tool', 'tool_result', 'tool_output', { city: 'Lisbon', sky: 'sunny', celsius: 24 }],
    ]);
    expect(events[1]!.origin_metadata).toMatchObject({ call_id: 'call-1' });
    expect(events[0]!.turn_id).toBe(events[1]!.turn_id);
    expect(events[2]!.turn_id).toBe(events[3]!.turn_id);
    expect(events[2]!.turn_id).not.toBe(events[0]!.turn_id);
  });

  it('composes for the purpose and under the turn id a call names in providerOptions.engram', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: generated([{ type: 'text', text: 'Step one: book the venue.' }]),
    });
    await generateText({
      model: withMemory(model, { purpose: 'tool' }),
      prompt: 'Plan the launch.',
      providerOptions: {
        engram: { session_id: 'launch', run_id: 'plan-1', purpose: 'planner', turn_id: 'launch-turn-1' },
      },
    });
    expect(systemPromptOf(model.doGenerateCalls[0]!)).toContain('# Memory for the planner');
    const events = await sessionEvents('launch');
    expect(events.map((event) => [event.turn_id, event.run_id])).toEqual([
      ['launch-turn-1', 'plan-1'],
      ['launch-turn-1', 'plan-1'],
    ]);
  });
});

describe('engramMiddleware with streamText', () => {
  it('commits the accumulated text and tool calls when the stream ends, and memory reaches the next session', async () => {
    const model = new MockLanguageModelV3({
      doStream: [
        streamed('Let me note that. ', [toolCall('call-7', 'note', { text: 'peanut allergy' })]),
        streamed('Noted: no peanuts, ever.'),
        streamed('How about apple slices with yoghurt?'),
      ],
    });
    const note = tool({
      description: 'Takes a note.',
      inputSchema: jsonSchema<{ text: string }>({
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
      }),
      execute: async () => 'saved',
    });
    const first = streamText({
      model: withMemory(model),
      tools: { note },
      stopWhen: stepCountIs(3),
      prompt: "I'm allergic to peanuts.",
      providerOptions: { engram: { session_id: 'stream-1' } },
    });
    expect(await first.text).toBe('Noted: no peanuts, ever.');
    expect(said(await sessionEvents('stream-1'))).toEqual([
      ['human', 'message', "I'm allergic to peanuts."],
      ['agent', 'message', 'Let me note that. '],
      ['agent', 'message', 'note({"text":"peanut allergy"})'],
      ['agent', 'message', 'Noted: no peanuts, ever.'],
      ['tool', 'tool_result', 'saved'],
    ]);

    const second = streamText({
      model: withMemory(model),
      prompt: 'Any snack ideas?',
      providerOptions: { engram: { session_id: 'stream-2' } },
    });
    await second.consumeStream();
    expect(systemPromptOf(model.doStreamCalls[2]!)).toContain('allergic to peanuts');
    expect(said(await sessionEvents('stream-2'))).toEqual([
      ['human', 'message', 'Any snack ideas?'],
      ['agent', 'message', 'How about apple slices with yoghurt?'],
    ]);
  });

  it('commits nothing for a stream that ends in an error part', async () => {
    const model = new MockLanguageModelV3({
      doStream: {
        stream: new ReadableStream({
          start: (controller) => (
            controller.enqueue({ type: 'error', error: new Error('connection reset') }),
            controller.close()
          ),
        }),
      },
    });
    const result = streamText({
      model: withMemory(model),
      prompt: 'Hello?',
      providerOptions: { engram: { session_id: 'broken' } },
      onError: () => undefined,
    });
    await result.consumeStream();
    expect(await sessionEvents('broken')).toEqual([]);
  });
});

describe('engramMiddleware when Engram fails', () => {
  // The test's own Engram with one call failing (each test has a fresh one).
  const failing = (phase: 'compose' | 'commit') => {
    const engram = current.engram;
    if (phase === 'compose') vi.spyOn(engram, 'compose').mockRejectedValue(new Error('store offline'));
    else vi.spyOn(engram, 'commitTurn').mockRejectedValue(new Error('disk full'));
    return engram;
  };

  it.each(['compose', 'commit'] as const)('reports a failed %s to onError and the call goes on', async (phase) => {
    const onError = vi.fn();
    const model = new MockLanguageModelV3({ doGenerate: generated([{ type: 'text', text: 'Hello!' }]) });
    const wrapped = wrapLanguageModel({
      model,
      middleware: engramMiddleware({ engram: failing(phase), scope: { ...user, session_id: 'flaky' }, onError }),
    });
    const result = await generateText({ model: wrapped, system: 'Be brief.', prompt: 'Hi' });
    expect(result.text).toBe('Hello!');
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]![1]).toEqual({ phase, turn_id: expect.stringMatching(/^ai-sdk:1:/u) });
    if (phase === 'compose') expect(systemPromptOf(model.doGenerateCalls[0]!)).toBe('Be brief.');
  });

  it('emits a process warning by default', async () => {
    const warnings: Error[] = [];
    const listen = (warning: Error) => warnings.push(warning);
    process.on('warning', listen);
    try {
      const model = new MockLanguageModelV3({ doGenerate: generated([{ type: 'text', text: 'Hello!' }]) });
      const wrapped = wrapLanguageModel({
        model,
        middleware: engramMiddleware({ engram: failing('commit'), scope: { ...user, session_id: 'flaky' } }),
      });
      expect((await generateText({ model: wrapped, prompt: 'Hi' })).text).toBe('Hello!');
      await vi.waitFor(() => expect(warnings).toHaveLength(1));
      expect(warnings[0]).toMatchObject({
        name: 'EngramWarning',
        code: 'ENGRAM_COMMIT_FAILED',
        message: expect.stringContaining('disk full'),
      });
    } finally {
      process.off('warning', listen);
    }
  });

  it('fails the call when onError throws', async () => {
    const model = new MockLanguageModelV3({ doStream: streamed('Hello!') });
    const wrapped = wrapLanguageModel({
      model,
      middleware: engramMiddleware({
        engram: failing('commit'),
        scope: { ...user, session_id: 'strict' },
        onError: (error) => {
          throw error;
        },
      }),
    });
    const result = streamText({ model: wrapped, prompt: 'Hi' });
    const read = async () => {
      for await (const delta of result.textStream) expect(delta).toBe('Hello!');
    };
    await expect(read()).rejects.toThrow('disk full');
  });

  it('reports a scope it cannot complete and calls the model without memory', async () => {
    const onError = vi.fn();
    const model = new MockLanguageModelV3({ doGenerate: generated([{ type: 'text', text: 'Hello!' }]) });
    const wrapped = wrapLanguageModel({
      model,
      middleware: engramMiddleware({ engram: current.engram, scope: user, onError }),
    });
    expect((await generateText({ model: wrapped, prompt: 'Hi' })).text).toBe('Hello!');
    await generateText({
      model: wrapped,
      prompt: 'Hi',
      providerOptions: { engram: { session_id: 's1', sessionId: 's1' } },
    });
    expect(onError.mock.calls.map(([error, context]) => [error.code, error.field, context])).toEqual([
      ['VALIDATION_FAILED', 'providerOptions.engram.session_id', { phase: 'compose' }],
      ['VALIDATION_FAILED', 'providerOptions.engram.sessionId', { phase: 'compose' }],
    ]);
    expect(model.doGenerateCalls.map((call) => call.prompt.some((message) => message.role === 'system'))).toEqual([
      false,
      false,
    ]);
  });
});
