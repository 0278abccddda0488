// The example's model: any OpenAI-compatible chat endpoint named by OPENAI_BASE_URL (with
// OPENAI_API_KEY and OPENAI_MODEL), or, when none is named, an offline reply that says which
// remembered lines the prompt carried, so the example runs without a network.

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

interface Completion {
  choices: Array<{ message: { content: string | null } }>;
}

function isCompletion(body: unknown): body is Completion {
  const choices = (body as { choices?: unknown } | null)?.choices;
  return Array.isArray(choices) && choices.length > 0 && typeof (choices[0] as { message?: { content?: unknown } }).message?.content === 'string';
}

/** Lines of a rendered packet that quote memory (they start with a citation handle such as `[VKY2P2]`). */
function rememberedLines(system: string): string[] {
  return system.split('\n').filter((line) => /^\s*-?\s*\[[0-9A-Z]{6}\]/u.test(line));
}

/**
 * The assistant's reply to a conversation.
 *
 * @example
 * const reply = await chat([{ role: 'user', content: 'Hello' }]);
 */
export async function chat(messages: ChatMessage[]): Promise<string> {
  const baseUrl = process.env['OPENAI_BASE_URL'];
  if (baseUrl === undefined || baseUrl === '') {
    const remembered = rememberedLines(messages.find((message) => message.role === 'system')?.content ?? '');
    return remembered.length === 0 ? '(offline: no OPENAI_BASE_URL) I remember nothing about you yet.' : `(offline: no OPENAI_BASE_URL) I remember:\n${remembered.join('\n')}`;
  }
  const response = await fetch(`${baseUrl.replace(/\/+$/u, '')}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env['OPENAI_API_KEY'] ?? ''}` },
    body: JSON.stringify({ model: process.env['OPENAI_MODEL'] ?? 'gpt-4o-mini', messages }),
  });
  const body: unknown = await response.json();
  if (!response.ok || !isCompletion(body)) throw new Error(`the model at ${baseUrl} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body.choices[0]!.message.content ?? '';
}
