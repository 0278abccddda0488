// Requests Node's HTTP parser refuses before Fastify sees them (bad chunked encoding, a bad
// Content-Length, headers past the size limit, a request not received in time): answered with the
// same problem+json document as every other error, written straight to the socket.

import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

import type { FastifyBaseLogger } from 'fastify';

import { HttpError, type ServerErrorCode } from './http-error.js';
import { problemOf } from './problem.js';
import { boundsOwnTime } from './route-kit.js';

/** The parser's error codes that name a header, for the problem's `field`. */
const FIELDS: Readonly<Record<string, string>> = {
  HPE_INVALID_CONTENT_LENGTH: 'content-length',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'content-length',
  HPE_INVALID_CHUNK_SIZE: 'transfer-encoding',
  HPE_INVALID_TRANSFER_ENCODING: 'transfer-encoding',
  HPE_HEADER_OVERFLOW: 'headers',
};

interface ParserError extends Error {
  code?: string;
  /** llhttp's description of what it found, e.g. "Invalid character in chunk size". */
  reason?: string;
}

function classify(error: ParserError): { code: ServerErrorCode; detail: string } {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { code: 'REQUEST_TIMEOUT', detail: 'the request was not received completely within the request timeout' };
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return { code: 'HEADERS_TOO_LARGE', detail: 'the request headers are larger than the server accepts (16 KiB)' };
  const what = typeof error.reason === 'string' && error.reason !== '' ? error.reason : 'malformed request';
  return { code: 'BAD_REQUEST', detail: `the HTTP request is malformed: ${what} (${error.code ?? 'parse error'})` };
}

/** True when a response is already on its way on this socket (nothing more may be written). */
function responding(socket: Socket): boolean {
  const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  return current?.headersSent === true;
}

/**
 * Fastify's `clientErrorHandler`: answers a request the HTTP parser refused with a problem
 * document (400 BAD_REQUEST, 408 REQUEST_TIMEOUT or 431 HEADERS_TOO_LARGE) when the socket still
 * allows it, then closes the connection.
 *
 * @example
 * Fastify({ clientErrorHandler: answerClientError });
 */
export function answerClientError(this: { log: FastifyBaseLogger }, error: ParserError, socket: Socket): void {
  // A reset connection has no one left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // A streamed import bounds its own time by progress (route-kit's `progress` deadline).
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && boundsOwnTime(socket)) return;
  const requestId = randomUUID();
  const { code, detail } = classify(error);
  const problem = problemOf(
    new HttpError(code, detail, error.code === undefined ? null : (FIELDS[error.code] ?? null)),
    requestId,
  );
  this.log.info({ reqId: requestId, code, parserCode: error.code }, 'malformed request refused');
  if (!socket.writable || responding(socket)) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(problem);
  const head = [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? 'Error'}`,
    'Content-Type: application/problem+json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${requestId}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}
