// Answers for what never reaches a route: requests the HTTP parser rejects (malformed request line,
// headers too large, a body that never finishes in time) and unmet `Expect` headers. They get the
// same error envelope and request id as every other answer of the API listeners, guessing the
// surface from the request line when the parser kept it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBodyFor, type ApiSurface } from '../../core/protocol/error-bodies.ts';
import { surfaceOf } from '../gateway-request.ts';

interface ParserError extends Error {
  code?: string;
  rawPacket?: unknown;
}

function describe(error: ParserError): { status: number; code: string; message: string } {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return { status: 408, code: 'request_timeout', message: 'The request was not received in time: the headers or the body stopped arriving. Send the whole request without pauses, then retry.' };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: 'headers_too_large', message: 'The request headers are larger than the server accepts. Send fewer or shorter headers (a key belongs in one Authorization header).' };
    case 'HPE_INVALID_METHOD':
    case 'HPE_INVALID_URL':
      return { status: 400, code: 'malformed_request', message: 'The request line is not valid HTTP (method or URL). Send e.g. POST /v1/chat/completions HTTP/1.1.' };
    default:
      return { status: 400, code: 'malformed_request', message: `The request is not valid HTTP (${error.code ?? 'parse error'}). Check the client or any proxy in between.` };
  }
}

function surfaceFromPacket(packet: unknown): ApiSurface {
  const head = Buffer.isBuffer(packet) ? packet.subarray(0, 8192).toString('latin1') : '';
  const target = head.split('\r\n', 1)[0]!.split(' ')[1] ?? '/';
  return surfaceOf(target, /\r\nanthropic-version:/i.test(head) ? 'present' : undefined);
}

export function errorBody(surface: ApiSurface, status: number, code: string, message: string, requestId: string): string {
  return JSON.stringify(errorBodyFor(surface, status, message, { requestId, code }));
}

/** fastify's clientErrorHandler: writes one answer in shape on the raw socket, then closes it. */
export function rawClientErrorHandler(nextRequestId: () => string) {
  return (error: ParserError, socket: Duplex): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const { status, code, message } = describe(error);
    const requestId = nextRequestId();
    const body = errorBody(surfaceFromPacket(error.rawPacket), status, code, message, requestId);
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${status === 408 ? 'Request Timeout' : status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
          `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}

/** Node's 'checkExpectation' event: an Expect header other than 100-continue. */
export function expectationFailed(nextRequestId: () => string) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    const requestId = nextRequestId();
    const body = errorBody(surfaceOf(request.url ?? '/', request.headers['anthropic-version']), 417, 'expectation_failed', `The Expect header "${String(request.headers.expect).slice(0, 60)}" is not supported; send the request without it (or with Expect: 100-continue).`, requestId);
    response.writeHead(417, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-request-id': requestId, connection: 'close' });
    response.end(body);
  };
}
