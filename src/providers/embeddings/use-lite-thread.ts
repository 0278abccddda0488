// The local model's own thread (node:worker_threads), started by model-thread.ts: it loads the
// Universal Sentence Encoder lite and runs every forward pass, so neither the load nor inference
// ever holds the thread that serves requests. Passes come from a PassQueue (interactive calls
// first, each pass bounded in tokens); between two passes the thread reads its messages, so a new
// interactive call or a cancel is seen before the next pass starts.

import { parentPort, workerData } from 'node:worker_threads';

import { EngramError } from '../../spec/errors.js';
import { normalise } from '../../util/vectors.js';
import { PassQueue, type PassEntry } from './pass-queue.js';
import { toWire, type FromThread, type ThreadData, type ToThread } from './thread-protocol.js';
import { USE_LITE_MAX_TOKENS } from './use-lite-input.js';
import { loadEncoder, type SentenceEncoder } from './use-lite-loader.js';

const port = parentPort;
if (port === null)
  throw new EngramError('INTERNAL', 'use-lite-thread runs only as a worker thread of the local embedding model', {
    field: 'embeddings',
  });
const data = workerData as ThreadData;

/** The vectors of each call in the thread, by call id, until its last text is embedded. */
const calls = new Map<number, { vectors: Float32Array[]; left: number }>();
let encoder: SentenceEncoder | undefined;
let pumping = false;

/** The tokens the model reads of a text; without a tokenizer (a stand-in model), as many as it reads at most. */
function tokensOf(text: string): number {
  const tokenizer = encoder?.tokenizer;
  if (tokenizer === undefined) return USE_LITE_MAX_TOKENS;
  return Math.min(USE_LITE_MAX_TOKENS, Math.max(1, tokenizer.encode(text).length));
}

const queue = new PassQueue(data.passTokens, tokensOf);

function send(message: FromThread, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(message, transfer);
}

function fail(id: number, error: unknown): void {
  if (!calls.delete(id)) return;
  queue.cancel(id);
  send({ type: 'failed', id, error: toWire(error) });
}

async function runPass(model: SentenceEncoder, pass: PassEntry[]): Promise<void> {
  let rows: unknown;
  try {
    // An empty string has no tokens; as the last of a batch the model drops its row, alone it fails.
    rows = await model.embed(pass.map((entry) => (entry.text === '' ? ' ' : entry.text)));
    if (!Array.isArray(rows) || rows.length !== pass.length) {
      throw new EngramError(
        'INTERNAL',
        `the local embedding model returned ${Array.isArray(rows) ? rows.length : 'no'} vectors for ${pass.length} texts`,
        { field: 'embeddings' },
      );
    }
  } catch (error) {
    for (const id of new Set(pass.map((entry) => entry.id))) fail(id, error);
    return;
  }
  const vectors = rows as number[][];
  pass.forEach((entry, row) => {
    const call = calls.get(entry.id);
    if (call === undefined) return; // Cancelled while the pass ran.
    call.vectors[entry.index] = normalise(vectors[row]!);
    call.left -= 1;
    if (call.left > 0) return;
    calls.delete(entry.id);
    send(
      { type: 'done', id: entry.id, vectors: call.vectors },
      call.vectors.map((vector) => vector.buffer as ArrayBuffer),
    );
  });
}

async function pump(): Promise<void> {
  if (pumping || encoder === undefined) return;
  pumping = true;
  try {
    for (let pass = queue.next(); pass.length > 0; pass = queue.next()) {
      await runPass(encoder, pass);
      // Read the messages that arrived during the pass before choosing the next one.
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    pumping = false;
  }
}

port.on('message', (message: ToThread) => {
  if (message.type === 'cancel') {
    calls.delete(message.id);
    queue.cancel(message.id);
    return;
  }
  if (message.texts.length === 0) return send({ type: 'done', id: message.id, vectors: [] });
  calls.set(message.id, { vectors: new Array<Float32Array>(message.texts.length), left: message.texts.length });
  queue.add(message);
  void pump();
});

loadEncoder(data.packages).then(
  (loaded) => {
    encoder = loaded;
    send({ type: 'ready' });
    void pump();
  },
  (error: unknown) => send({ type: 'load-failed', error: toWire(error) }),
);
