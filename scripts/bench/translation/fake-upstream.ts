// A fast fake upstream for the translation benchmark that speaks both protocols with the same
// answer: POST /v1/chat/completions (chat-completions) and POST /v1/messages (messages), JSON or
// SSE (when the body asks for a stream). Loopback only; it prints "ready <url>" and exits when
// its stdin closes, so it never outlives the benchmark.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const WORDS = ['The', ' gateway', ' translates', ' each', ' event', ' as', ' it', ' arrives', ', nothing', ' buffered.'];
const TEXT = WORDS.join('');
const USAGE = { input: 24, output: WORDS.length };

const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

function chatJson(model: string): string {
  return JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: 1700000000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: TEXT, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: USAGE.input, completion_tokens: USAGE.output, total_tokens: USAGE.input + USAGE.output },
  });
}

function chatStream(model: string): string[] {
  const chunk = (delta: object, finish: string | null = null) =>
    sse({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1700000000, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], usage: null });
  return [
    chunk({ role: 'assistant', content: '', refusal: null }),
    ...WORDS.map((w) => chunk({ content: w })),
    chunk({}, 'stop'),
    sse({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1700000000, model, choices: [], usage: { prompt_tokens: USAGE.input, completion_tokens: USAGE.output, total_tokens: USAGE.input + USAGE.output } }),
    sse('[DONE]'),
  ];
}

function messagesJson(model: string): string {
  return JSON.stringify({
    id: 'msg_bench',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text: TEXT }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: USAGE.input, output_tokens: USAGE.output },
  });
}

function messagesStream(model: string): string[] {
  return [
    sse({ type: 'message_start', message: { id: 'msg_bench', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: USAGE.input, output_tokens: 1 } } }, 'message_start'),
    sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
    ...WORDS.map((text) => sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }, 'content_block_delta')),
    sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
    sse({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: USAGE.output } }, 'message_delta'),
    sse({ type: 'message_stop' }, 'message_stop'),
  ];
}

function answer(res: ServerResponse, stream: boolean, json: string, frames: string[]): void {
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
    res.end(json);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  // One write per event, as real services flush them.
  for (const frame of frames) res.write(frame);
  res.end();
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const stream = /"stream"\s*:\s*true/.test(body);
    const model = /"model"\s*:\s*"([^"]*)"/.exec(body)?.[1] ?? 'bench';
    if (req.method === 'POST' && req.url?.startsWith('/v1/chat/completions')) return answer(res, stream, chatJson(model), chatStream(model));
    if (req.method === 'POST' && req.url?.startsWith('/v1/messages')) return answer(res, stream, messagesJson(model), messagesStream(model));
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":{"message":"not found","type":"invalid_request_error"}}');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`ready http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
