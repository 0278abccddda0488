// Requests fetch will not send: any Host and Origin (node:http), and bytes that are not valid HTTP
// at all (node:net). Both return the status, headers and parsed JSON body of the answer.

import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';

export interface RawResponse<T = Record<string, unknown>> {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed JSON body (undefined when it is not JSON). */
  body: T;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Sends one request to a loopback server with the headers exactly as given (Host included).
 *
 * @example
 * await send(url, 'GET', '/v1/export', { host: 'attacker.example' });
 */
export function send<T = Record<string, unknown>>(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RawResponse<T>> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: hostname, port, method, path, headers, setHost: headers['host'] === undefined },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () => {
          const flat = Object.fromEntries(
            Object.entries(incoming.headers).map(([name, value]) => [
              name,
              Array.isArray(value) ? value.join(', ') : (value ?? ''),
            ]),
          );
          resolve({ status: incoming.statusCode ?? 0, headers: flat, text, body: parsed(text) as T });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * Writes raw bytes to the server and reads until it closes the connection (or `timeoutMs`).
 *
 * @example
 * await sendBytes(url, 'POST /v1/turns HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x\r\n\r\n');
 */
export function sendBytes<T = Record<string, unknown>>(
  base: string,
  bytes: string,
  timeoutMs = 5000,
): Promise<RawResponse<T> & { raw: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    let raw = '';
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (raw += chunk));
    // The server may close while bytes are still being written: that is an answer too.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const [head = '', ...rest] = raw.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      const text = rest.join('\r\n\r\n');
      resolve({ raw, status: Number(statusLine.split(' ')[1] ?? 0), headers, text, body: parsed(text) as T });
    });
  });
}
