import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';

import { generated, toolCall } from '../../../test/helpers/ai-sdk-models.js';
import { tempEngramEach } from '../../../test/helpers/temp-engram.js';
import { memoryTools } from './tools.js';

const scope = { user_id: 'mira', agent_id: 'chef' };
const snack = {
  type: 'preferences',
  key: 'pref:food:snack',
  value: { scope: 'food', name: 'snack', value: 'rice crackers' },
};

const current = tempEngramEach();

describe('memoryTools', () => {
  it('lets a model remember, find and forget an item in the real store', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        generated([toolCall('call-1', 'remember', snack)]),
        generated([toolCall('call-2', 'searchMemory', { query: 'favourite snack' })]),
        generated([toolCall('call-3', 'forget', { key: 'pref:food:snack', reason: 'now prefers fruit' })]),
        generated([{ type: 'text', text: 'Done.' }]),
      ],
    });
    const result = await generateText({
      model,
      tools: memoryTools({ engram: current.engram, scope }),
      stopWhen: stepCountIs(5),
      prompt: 'Remember my snack, look it up, then forget it.',
    });

    const outputs = result.steps.flatMap((step) => step.toolResults.map((entry) => [entry.toolName, entry.output]));
    expect(outputs).toEqual([
      [
        'remember',
        {
          changes: [
            {
              action: 'created',
              item_id: expect.stringMatching(/^mem_/u),
              type: 'preferences',
              key: 'pref:food:snack',
              version: 1,
            },
          ],
        },
      ],
      [
        'searchMemory',
        {
          hits: [
            expect.objectContaining({
              type: 'preferences',
              key: 'pref:food:snack',
              text: expect.stringContaining('rice crackers'),
            }),
          ],
        },
      ],
      ['forget', { changes: [expect.objectContaining({ action: 'retracted', key: 'pref:food:snack' })] }],
    ]);
    const [item] = await current.engram.items.list({ scope, status: ['retracted'] });
    expect(item).toMatchObject({
      key: 'pref:food:snack',
      provenance: { extractor: 'explicit', rule: 'ai-sdk.remember' },
    });
    expect(await current.engram.items.list({ scope })).toEqual([]);
  });

  it("shows the model Engram's message when its input breaks a rule", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        generated([toolCall('call-1', 'remember', { ...snack, key: 'pref:Food Snacks:crackers' })]),
        generated([{ type: 'text', text: 'Sorry.' }]),
      ],
    });
    await generateText({
      model,
      tools: memoryTools({ engram: current.engram, scope }),
      stopWhen: stepCountIs(2),
      prompt: 'Remember my snack.',
    });

    const answer = model.doGenerateCalls[1]!.prompt.at(-1)!;
    expect(answer).toMatchObject({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolName: 'remember',
          output: { type: 'error-text', value: expect.stringContaining('(a preferences key is pref:<scope>:<name>)') },
        },
      ],
    });
    expect(await current.engram.items.list({ scope })).toEqual([]);
  });

  it('keeps to the scope it was made with, whatever the model sends', async () => {
    await current.engram.items.remember({
      scope: { user_id: 'someone-else', agent_id: 'chef' },
      ...snack,
      type: 'preferences',
      value: { ...snack.value, value: 'salted peanuts' },
    });
    await current.engram.items.remember({ scope, ...snack, type: 'preferences' });
    const tools = memoryTools({ engram: current.engram, scope });
    const input = { query: 'snack', scope: { user_id: 'someone-else' } } as unknown as { query: string };
    const output = await tools.searchMemory.execute!(input, { toolCallId: 'call-1', messages: [] });

    expect(output).toEqual({ hits: [expect.objectContaining({ text: expect.stringContaining('rice crackers') })] });
  });
});
