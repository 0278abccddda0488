// The terminal around each chat example: its command line, its model settings (ENGRAM_LLM_*), a
// session chatted from the keyboard or the two sessions of --script, and what an offline model
// answers. An example brings only how one session replies, with its framework and Engram's
// integration for it.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

import { createEngram, type Engram } from 'engram';

/** The two sessions of --script: the first tells, the second asks. */
export const SCRIPT = [
  ["Hi! I'm Mira. I'm allergic to peanuts and I live in Lisbon.", 'Remember that my favourite snack is rice crackers.'],
  ['Can you suggest a snack for my hike tomorrow?'],
];

/** A setting the example cannot run with: printed without a stack trace. */
export class ConfigError extends Error {}

/** An OpenAI-compatible chat endpoint: ENGRAM_LLM_BASE_URL, ENGRAM_LLM_MODEL and ENGRAM_LLM_API_KEY. */
export interface LlmSettings {
  baseURL: string;
  model: string;
  apiKey?: string;
}

/** The endpoint the environment names, or undefined for the offline model. */
export function llmSettings(env: NodeJS.ProcessEnv): LlmSettings | undefined {
  const baseURL = env['ENGRAM_LLM_BASE_URL'];
  const model = env['ENGRAM_LLM_MODEL'];
  if (baseURL === undefined && model === undefined) return undefined;
  if (baseURL === undefined || model === undefined)
    throw new ConfigError('Set both ENGRAM_LLM_BASE_URL and ENGRAM_LLM_MODEL, or neither for the offline model.');
  const apiKey = env['ENGRAM_LLM_API_KEY'];
  return { baseURL, model, ...(apiKey === undefined ? {} : { apiKey }) };
}

/** The lines of a packet's long-term sections (preferences and facts), without their citation handles. */
function rememberedFacts(system: string): string[] {
  let section = '';
  const facts: string[] = [];
  for (const line of system.split('\n')) {
    if (line.startsWith('## ')) section = line.slice(3);
    else if ((section === 'Preferences' || section === 'Facts') && line.startsWith('- '))
      facts.push(line.slice(2).replace(/^\[\w+\] /u, ''));
  }
  return facts;
}

/** What an offline model answers: the preferences and facts its system prompt holds. */
export function offlineAnswer(system: string): string {
  const remembered = rememberedFacts(system);
  return remembered.length === 0
    ? '(offline model) I remember nothing about you yet. Set ENGRAM_LLM_BASE_URL and ENGRAM_LLM_MODEL to talk to a real model.'
    : `(offline model) What I remember: ${remembered.join('; ')}`;
}

/** Answers one user message, writing the reply as it comes. */
export type Reply = (text: string, write: (delta: string) => void) => Promise<void>;

/** What a session of the chat is opened with. */
export interface SessionContext {
  engram: Engram;
  userId: string;
  sessionId: string;
  /** The example's name, which its writes carry as their agent_id. */
  agentId: string;
  /** The configured endpoint; undefined for the offline model. */
  llm: LlmSettings | undefined;
  /** Tells the terminal the system prompt a model call was given: --script prints the last one. */
  showSystemPrompt(text: string): void;
}

export interface ChatExample {
  /** The agent_id, and the default store `./.engram/<name>.db`. */
  name: string;
  /** Opens one session of the chat. */
  session(context: SessionContext): Reply | Promise<Reply>;
}

const USAGE = 'Options: --script, --user ID, --session ID, --store sqlite:PATH';

function options(): { script: boolean; user: string; session: string | undefined; store: string | undefined } {
  try {
    const { values } = parseArgs({
      options: {
        script: { type: 'boolean', default: false },
        user: { type: 'string', default: 'mira' },
        session: { type: 'string' },
        store: { type: 'string' },
      },
    });
    return { script: values.script, user: values.user, session: values.session, store: values.store };
  } catch (error) {
    throw new ConfigError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
}

async function say(reply: Reply, text: string): Promise<void> {
  process.stdout.write('assistant> ');
  await reply(text, (delta) => process.stdout.write(delta));
  process.stdout.write('\n');
}

async function chat(
  open: (sessionId: string) => Promise<Reply>,
  user: string,
  sessionId: string,
  model: string,
): Promise<void> {
  const reply = await open(sessionId);
  const terminal = createInterface({ input: process.stdin, output: process.stdout, prompt: 'you> ' });
  console.log(`Session ${sessionId} with ${user}, model ${model}. An empty line or Ctrl-D ends it.`);
  terminal.prompt();
  try {
    // The line iterator ends at end of input (Ctrl-D) and holds lines typed while a reply streams.
    for await (const line of terminal) {
      const text = line.trim();
      if (text === '') return;
      await say(reply, text);
      terminal.prompt();
    }
  } finally {
    terminal.close();
  }
}

async function script(open: (sessionId: string) => Promise<Reply>, lastSystemPrompt: () => string): Promise<void> {
  for (const [index, lines] of SCRIPT.entries()) {
    console.log(`── session ${index + 1} ──`);
    const reply = await open(`script-${index + 1}`);
    for (const line of lines) {
      console.log(`you> ${line}`);
      await say(reply, line);
    }
  }
  console.log(`── the system prompt of session ${SCRIPT.length}'s last call ──\n${lastSystemPrompt()}`);
}

async function run(example: ChatExample): Promise<void> {
  const chosen = options();
  const llm = llmSettings(process.env);
  // A script plays on a store of its own, so every run shows the same two sessions.
  const scratch =
    chosen.script && chosen.store === undefined ? mkdtempSync(join(tmpdir(), `${example.name}-`)) : undefined;
  const store =
    chosen.store ??
    (scratch === undefined ? `sqlite:./.engram/${example.name}.db` : `sqlite:${join(scratch, 'engram.db')}`);
  const engram = await createEngram({ store });
  let lastSystemPrompt = '';
  const open = async (sessionId: string) =>
    example.session({
      engram,
      userId: chosen.user,
      sessionId,
      agentId: example.name,
      llm,
      showSystemPrompt: (text) => (lastSystemPrompt = text),
    });
  try {
    if (chosen.script) await script(open, () => lastSystemPrompt);
    else
      await chat(
        open,
        chosen.user,
        chosen.session ?? `chat-${new Date().toISOString()}`,
        llm === undefined ? 'offline' : `${llm.model} at ${llm.baseURL}`,
      );
  } finally {
    await engram.close();
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Runs a chat example from the command line: `--script` plays the two sessions of SCRIPT (on a
 * temporary store unless `--store` names one) and prints the last system prompt; otherwise one
 * session is chatted from the keyboard.
 *
 * @example
 * await runChat({ name: 'my-chat', session: ({ engram, userId, sessionId }) => async (text, write) => write(text) });
 */
export async function runChat(example: ChatExample): Promise<void> {
  try {
    await run(example);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exitCode = 2;
  }
}
