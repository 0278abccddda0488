// The example's model: an OpenAI-compatible Chat Completions endpoint called with fetch, or, when
// none is configured, the offline answer built from the memory its system prompt carries.

import { offlineAnswer, type LlmSettings } from '../shared/terminal-chat.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

interface Completion {
  choices: Array<{ message: { content: string | null } }>;
}

function isCompletion(body: unknown): body is Completion {
  const choices = (body as { choices?: unknown } | null)?.choices;
  return (
    Array.isArray(choices) &&
    choices.length > 0 &&
    typeof (choices[0] as { message?: { content?: unknown } }).message === 'object'
  );
}

/**
 * The assistant's reply to a conversation.
 *
 * @example
 * const reply = await chat(llmSettings(process.env), [{ role: 'user', content: 'Hello' }]);
 */
export async function chat(llm: LlmSettings | undefined, messages: ChatMessage[]): Promise<string> {
  if (llm === undefined)
    return offlineAnswer(
      messages
        .filter((message) => message.role === 'system')
        .map((message) => message.content)
        .join('\n'),
    );
  const url = `${llm.baseURL.replace(/\/+$/u, '')}/chat/completions`;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(llm.apiKey === undefined ? {} : { authorization: `Bearer ${llm.apiKey}` }),
    },
    body: JSON.stringify({ model: llm.model, messages }),
  });
  const body: unknown = await response.json();
  if (!response.ok || !isCompletion(body))
    throw new Error(`the model at ${url} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body.choices[0]!.message.content ?? '';
}
