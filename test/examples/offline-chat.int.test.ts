// Each chat example chatted from standard input with no model configured: its offline model answers
// from the memory in its system prompt, a session ends at the end of the input (closing the store),
// and the next session on the same store knows what the first one told.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { chatOffline } from '../helpers/chat-example.js';

describe('the chat examples offline, from standard input', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'chat-examples-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it.each(['ai-sdk-chat', 'langgraph-chat', 'openai-agents-chat'])('%s remembers across two sessions', async (name) => {
    const store = `sqlite:${join(folder, 'engram.db')}`;
    const first = await chatOffline(name, store, ["I'm allergic to peanuts and I live in Lisbon."]);
    expect(first).toContain('Session chat-');
    expect(first).toContain('assistant> (offline model) I remember nothing about you yet.');

    const second = await chatOffline(name, store, [
      'Any snack ideas?',
      '',
      'not read: the empty line ended the session',
    ]);
    expect(second).toContain(
      'assistant> (offline model) What I remember: profile:user: location: Lisbon; allergy:peanuts: allergic to peanuts',
    );
    expect(second.match(/assistant> /gu)).toHaveLength(1);
  });
});
