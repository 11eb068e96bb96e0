// A fast fake chat-completions upstream for the gateway benchmark, run as its own process.
// POST /v1/chat/completions answers a fixed JSON body, or, when the request asks for
// "stream": true, an SSE stream of content chunks, a usage chunk and `data: [DONE]`, shaped
// like the real service with include_usage (each chunk carries "usage": null). POST /v1/messages
// answers the same in the messages protocol, POST /v1beta/models/{model}:generateContent (and
// :streamGenerateContent?alt=sse) in the Gemini API (the gateway's translated paths).
// Prints {"port": N} on stdout once it listens; exits on SIGTERM/SIGINT or when stdin closes.
import { createServer } from 'node:http';
import { serveChild } from './serve-child.ts';
import { pathToFileURL } from 'node:url';

export const FAKE_MODEL = 'bench-model';
export const STREAM_CONTENT_CHUNKS = 10;

const created = 1_700_000_000;

export const JSON_BODY = Buffer.from(
  JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created,
    model: FAKE_MODEL,
    choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! This is a fixed answer from the benchmark upstream.' }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 9, completion_tokens: 12, total_tokens: 21 },
    system_fingerprint: 'fp_bench',
  }),
);

function chunk(delta: Record<string, unknown>, finish: string | null): string {
  const event = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created, model: FAKE_MODEL, system_fingerprint: 'fp_bench', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], usage: null };
  return `data: ${JSON.stringify(event)}\n\n`;
}

/** The stream's events, each written separately (one write per event, as a real upstream does). */
export const STREAM_EVENTS: Buffer[] = [
  chunk({ role: 'assistant', content: '' }, null),
  ...Array.from({ length: STREAM_CONTENT_CHUNKS - 2 }, (_, i) => chunk({ content: ` word${i}` }, null)),
  chunk({}, 'stop'),
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created, model: FAKE_MODEL, system_fingerprint: 'fp_bench', choices: [], usage: { prompt_tokens: 9, completion_tokens: 8, total_tokens: 17 } })}\n\n`,
  'data: [DONE]\n\n',
].map((s) => Buffer.from(s));

export const STREAM_BYTES = Buffer.concat(STREAM_EVENTS);

/** The same answer in the messages protocol, for the translated path (a chat client, a messages upstream). */
export const MESSAGES_JSON_BODY = Buffer.from(
  JSON.stringify({
    id: 'msg_bench',
    type: 'message',
    role: 'assistant',
    model: FAKE_MODEL,
    content: [{ type: 'text', text: 'Hello! This is a fixed answer from the benchmark upstream.' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 9, output_tokens: 12 },
  }),
);

const messagesEvent = (data: Record<string, unknown>) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
export const MESSAGES_STREAM_EVENTS: Buffer[] = [
  messagesEvent({ type: 'message_start', message: { id: 'msg_bench', type: 'message', role: 'assistant', model: FAKE_MODEL, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 9, output_tokens: 1 } } }),
  messagesEvent({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  ...Array.from({ length: STREAM_CONTENT_CHUNKS - 2 }, (_, i) => messagesEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ` word${i}` } })),
  messagesEvent({ type: 'content_block_stop', index: 0 }),
  messagesEvent({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 8 } }),
  messagesEvent({ type: 'message_stop' }),
].map((s) => Buffer.from(s));

/** The same answer in the Gemini API, for the Gemini-upstream path (a chat client, a gemini upstream). */
export const GEMINI_JSON_BODY = Buffer.from(
  JSON.stringify({
    candidates: [{ content: { role: 'model', parts: [{ text: 'Hello! This is a fixed answer from the benchmark upstream.' }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 12, totalTokenCount: 21 },
    modelVersion: FAKE_MODEL,
    responseId: 'gemini-bench',
  }),
);

const geminiChunk = (parts: unknown[], last = false) =>
  `data: ${JSON.stringify({
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
    usageMetadata: last ? { promptTokenCount: 9, candidatesTokenCount: 8, totalTokenCount: 17 } : { promptTokenCount: 9, totalTokenCount: 9 },
    modelVersion: FAKE_MODEL,
    responseId: 'gemini-bench',
  })}\r\n\r\n`;
export const GEMINI_STREAM_EVENTS: Buffer[] = [
  ...Array.from({ length: STREAM_CONTENT_CHUNKS - 2 }, (_, i) => geminiChunk([{ text: ` word${i}` }])),
  geminiChunk([{ text: '' }], true),
].map((s) => Buffer.from(s));

const STREAM_FLAG = /"stream"\s*:\s*true/;

function main(): void {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url?.split('?', 1)[0];
      if (req.method === 'POST' && path === '/v1/messages') {
        if (!STREAM_FLAG.test(Buffer.concat(chunks).toString('utf8'))) {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': MESSAGES_JSON_BODY.length }).end(MESSAGES_JSON_BODY);
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        for (const event of MESSAGES_STREAM_EVENTS) res.write(event);
        res.end();
        return;
      }
      if (req.method === 'POST' && path === `/v1beta/models/${FAKE_MODEL}:generateContent`) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': GEMINI_JSON_BODY.length }).end(GEMINI_JSON_BODY);
        return;
      }
      if (req.method === 'POST' && path === `/v1beta/models/${FAKE_MODEL}:streamGenerateContent`) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        for (const event of GEMINI_STREAM_EVENTS) res.write(event);
        res.end();
        return;
      }
      if (req.method !== 'POST' || path !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found","type":"invalid_request_error","param":null,"code":null}}');
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      if (!STREAM_FLAG.test(body)) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': JSON_BODY.length }).end(JSON_BODY);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const event of STREAM_EVENTS) res.write(event);
      res.end();
    });
  });
  serveChild(server);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
