import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
  /** Resolves true when the connection closed before the response was finished. */
  closedEarly: Promise<boolean>;
}

export type Responder = (req: ReceivedRequest, res: ServerResponse) => void | Promise<void>;

export interface FakeUpstream {
  url: string;
  port: number;
  received: ReceivedRequest[];
  respond(responder: Responder): void;
  close(): Promise<void>;
}

const fixtures = new URL('../fixtures/', import.meta.url);

export const jsonMessage = {
  id: 'msg_fake_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-opus-4-8',
  content: [{ type: 'text', text: 'hi from fake upstream' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 12, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
};

export const replyJson: Responder = (_req, res) => {
  const text = JSON.stringify(jsonMessage);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'request-id': 'req_fake_1' });
  res.end(text);
};

/** Writes each piece as its own TCP write, pausing in between so they arrive as separate chunks. */
export function replySse(pieces: Array<string | Buffer>, headers: Record<string, string> = {}, gapMs = 15): Responder {
  return async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...headers });
    res.socket?.setNoDelay(true);
    for (const piece of pieces) {
      res.write(piece);
      await new Promise((resolve) => setTimeout(resolve, gapMs));
    }
    res.end();
  };
}

export interface SseOptions {
  text?: string;
  model?: string;
  usage?: Record<string, unknown>;
}

/** A well-formed messages-API event stream, one string per SSE event. */
export function messageEvents(options: SseOptions = {}): string[] {
  const text = options.text ?? 'Hello from the fake upstream';
  const usage = options.usage ?? { input_tokens: 20, cache_read_input_tokens: 900, cache_creation_input_tokens: 100, output_tokens: 1 };
  const event = (name: string, data: unknown): string => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  const half = Math.ceil(text.length / 2);
  return [
    event('message_start', {
      type: 'message_start',
      message: { id: 'msg_fake_2', type: 'message', role: 'assistant', model: options.model ?? 'claude-opus-4-8', content: [], stop_reason: null, stop_sequence: null, usage },
    }),
    event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    event('ping', { type: 'ping' }),
    event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: text.slice(0, half) } }),
    event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: text.slice(half) } }),
    event('content_block_stop', { type: 'content_block_stop', index: 0 }),
    event('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } }),
    event('message_stop', { type: 'message_stop' }),
  ];
}

export async function startFakeUpstream(initial: Responder = replyJson, tls = false): Promise<FakeUpstream> {
  let responder = initial;
  const received: ReceivedRequest[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const closedEarly = new Promise<boolean>((resolve) => {
        res.once('close', () => resolve(!res.writableFinished));
      });
      const entry: ReceivedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks),
        closedEarly,
      };
      received.push(entry);
      Promise.resolve(responder(entry, res)).catch(() => res.destroy());
    });
  };
  const server = tls
    ? https.createServer({ key: readFileSync(new URL('test-upstream-key.pem', fixtures)), cert: readFileSync(new URL('test-upstream-cert.pem', fixtures)) }, handler)
    : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    received,
    respond(next) {
      responder = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const testCertPath = new URL('test-upstream-cert.pem', fixtures).pathname;
