// A short POST for probing a relay: bounded time and body; for a streamed answer only the head of
// the event stream is read, then the connection is dropped.
import type { NetworkFailure } from '../client/http-get.ts';
import { classifyNetworkError } from '../client/network-error.ts';
import { SseParser } from '../protocol/sse.ts';

export interface PostRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

export type PostOutcome =
  | { kind: 'response'; status: number; headers: Record<string, string>; body: string; eventStream: boolean }
  | { kind: 'error'; failure: NetworkFailure };

export type HttpPost = (request: PostRequest) => Promise<PostOutcome>;

const MAX_BODY = 64 * 1024;
const MAX_STREAM_HEAD = 4 * 1024;

export const undiciPost: HttpPost = async ({ url, headers, body, timeoutMs }) => {
  // Loaded on first use, so commands that never post do not load undici.
  const { Agent, request } = await import('undici');
  const dispatcher = new Agent({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs * 2);
  try {
    const response = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, dispatcher, signal: abort.signal });
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    const eventStream = /text\/event-stream/i.test(flat['content-type'] ?? '');
    const limit = eventStream ? MAX_STREAM_HEAD : MAX_BODY;
    const chunks: Buffer[] = [];
    let size = 0;
    const events = eventStream ? new SseParser() : undefined;
    for await (const chunk of response.body) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      // The first complete event (not a keep-alive comment) is enough to know the stream works.
      if (size >= limit || events?.push(chunk as Buffer).some((e) => !e.comment)) break;
    }
    return { kind: 'response', status: response.statusCode, headers: flat, body: Buffer.concat(chunks).toString('utf8'), eventStream };
  } catch (error) {
    return { kind: 'error', failure: classifyNetworkError(error) };
  } finally {
    clearTimeout(timer);
    abort.abort();
    void dispatcher.destroy().catch(() => undefined);
  }
};
