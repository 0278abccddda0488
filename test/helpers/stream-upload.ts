// A POST whose body is produced and sent piece by piece over a real socket, as a slow or huge upload
// arrives: the answer is read whenever it comes, and sending stops once it has.

import { request, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';

export interface UploadResult {
  status: number;
  headers: IncomingHttpHeaders;
  /** The parsed JSON answer (undefined when it is not JSON). */
  body: Record<string, unknown> | undefined;
  /** Bytes of the body written to the socket before the answer came (or all of them). */
  sent: number;
  /** Milliseconds from the start to the answer. */
  elapsedMs: number;
  /** The server closed the connection within 3 s of its answer. */
  closedByServer: boolean;
}

/** Resolves once a request can take more (or is gone). */
function drained(req: ClientRequest): Promise<void> {
  return new Promise((done) => {
    const finish = () => {
      req.off('drain', finish);
      req.off('close', finish);
      done();
    };
    req.once('drain', finish);
    req.once('close', finish);
  });
}

export interface UploadOptions {
  key: string;
  contentType?: string;
  /** Wait this long between pieces (a slow client). */
  pauseMs?: number;
}

/**
 * Streams `pieces` as the body of a POST to `url` (chunked), honouring backpressure; resolves with
 * the answer. A connection the server closes after answering is not an error.
 *
 * @example
 * const { status } = await streamUpload(`${base}/v1/import`, lines(), { key });
 */
export function streamUpload(
  url: string,
  pieces: AsyncIterable<string | Buffer> | Iterable<string | Buffer>,
  options: UploadOptions,
): Promise<UploadResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${options.key}`,
          'content-type': options.contentType ?? 'application/x-ndjson',
        },
      },
      (response) => {
        answered = true;
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          let body: Record<string, unknown> | undefined;
          try {
            body = JSON.parse(text) as Record<string, unknown>;
          } catch {
            body = undefined;
          }
          const elapsedMs = Date.now() - started;
          const finish = (closedByServer: boolean) => {
            clearTimeout(timer);
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body,
              sent,
              elapsedMs,
              closedByServer,
            });
            req.destroy();
          };
          // A finished request keeps its connection for the next one: only an unfinished one waits to see it closed.
          const timer = setTimeout(() => finish(false), requestEnded ? 0 : 3000);
          if (socket.readableEnded || socket.destroyed) finish(true);
          else socket.once('end', () => finish(true)).once('close', () => finish(true));
        });
      },
    );
    let socket!: Socket;
    let requestEnded = false;
    req.on('socket', (given) => (socket = given));
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    void (async () => {
      for await (const piece of pieces) {
        if (answered || req.destroyed) return;
        sent += Buffer.byteLength(piece);
        if (!req.write(piece)) await drained(req);
        if (options.pauseMs !== undefined) await new Promise((done) => setTimeout(done, options.pauseMs));
      }
      if (!answered && !req.destroyed) {
        requestEnded = true;
        req.end();
      }
    })().catch(reject);
  });
}
