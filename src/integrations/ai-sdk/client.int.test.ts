import { rmSync } from 'node:fs';

import { generateText, stepCountIs, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createClient, type EngramClient } from '../../client/index.js';
import { generated, streamed, systemPromptOf, toolCall } from '../../../test/helpers/ai-sdk-models.js';
import { serveEngram, type ServedEngram } from '../../../test/helpers/served-engram.js';
import { tempEngram } from '../../../test/helpers/temp-engram.js';
import { engramMiddleware, memoryTools } from './index.js';

const user = { user_id: 'mira', agent_id: 'chef' };

let served: ServedEngram;
let client: EngramClient;
beforeAll(async () => {
  const store = await tempEngram();
  served = await serveEngram(store.engram, { auth: 'none' }, () =>
    rmSync(store.folder, { recursive: true, force: true }),
  );
  client = createClient({ baseUrl: served.url, apiKey: 'no-auth' });
});
afterAll(() => served.close());

describe('engram/ai-sdk over the HTTP client', () => {
  it('commits session 1 through the server and composes it into a streamed call of session 2, once per call', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: generated([{ type: 'text', text: 'Noted, nothing with peanuts.' }]),
      doStream: streamed('Apple slices with yoghurt.'),
    });
    const wrapped = (sessionId: string) =>
      wrapLanguageModel({
        model,
        middleware: engramMiddleware({ engram: client, scope: { ...user, session_id: sessionId } }),
      });

    const first = () => generateText({ model: wrapped('week-1'), prompt: "I'm allergic to peanuts." });
    await first();
    await first();
    await streamText({ model: wrapped('week-2'), prompt: 'Any snack ideas?' }).consumeStream();

    expect(systemPromptOf(model.doStreamCalls[0]!)).toContain('allergic to peanuts');
    const week1 = await client.events.list({ ...user, session_id: 'week-1' });
    expect(week1.items.map((event) => event.content)).toEqual([
      "I'm allergic to peanuts.",
      'Noted, nothing with peanuts.',
    ]);
    const week2 = await client.events.list({ ...user, session_id: 'week-2' });
    expect(week2.items.map((event) => event.content)).toEqual(['Any snack ideas?', 'Apple slices with yoghurt.']);
  });

  it('runs the memory tools against the server', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        generated([
          toolCall('call-1', 'remember', {
            type: 'preferences',
            key: 'pref:food:snack',
            value: { scope: 'food', name: 'snack', value: 'rice crackers' },
          }),
        ]),
        generated([toolCall('call-2', 'searchMemory', { query: 'snack' })]),
        generated([{ type: 'text', text: 'Rice crackers it is.' }]),
      ],
    });
    const result = await generateText({
      model,
      tools: memoryTools({ engram: client, scope: user }),
      stopWhen: stepCountIs(4),
      prompt: 'Remember my snack, then look it up.',
    });

    expect(result.steps[1]!.toolResults[0]!.output).toEqual({
      hits: [expect.objectContaining({ key: 'pref:food:snack', text: expect.stringContaining('rice crackers') })],
    });
    expect((await client.items.list({ ...user })).items.map((item) => item.key)).toContain('pref:food:snack');
  });
});
