// A slow chat-completions upstream for the open-streams benchmark, run as its own process: every
// streamed request is answered with one content chunk per second (one shared ticker for all open
// streams, so the fake itself holds no timer per stream), then a usage chunk and `data: [DONE]`.
// Usage: slow-upstream.ts <chunks per stream>. Prints {"port": N} once it listens; exits on
// SIGTERM/SIGINT or when stdin closes.
import { createServer, type ServerResponse } from 'node:http';
import { serveChild } from './serve-child.ts';

const created = 1_700_000_000;
const chunk = (content: string) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-slow', object: 'chat.completion.chunk', created, model: 'slow-model', choices: [{ index: 0, delta: { content }, finish_reason: null }], usage: null })}\n\n`;
const TAIL =
  `data: ${JSON.stringify({ id: 'chatcmpl-slow', object: 'chat.completion.chunk', created, model: 'slow-model', choices: [], usage: { prompt_tokens: 9, completion_tokens: 1, total_tokens: 10 } })}\n\n` +
  'data: [DONE]\n\n';

function main(chunksPerStream: number): void {
  const open = new Map<ServerResponse, number>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method !== 'POST' || req.url?.split('?', 1)[0] !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(chunk('start'));
      open.set(res, 1);
      res.on('close', () => open.delete(res));
    });
  });
  const ticker = setInterval(() => {
    for (const [res, sent] of open) {
      if (sent >= chunksPerStream) {
        open.delete(res);
        res.end(TAIL);
      } else {
        open.set(res, sent + 1);
        res.write(chunk(` word${sent}`));
      }
    }
  }, 1000);
  serveChild(server, () => clearInterval(ticker));
}

main(Number(process.argv[2] ?? 40));
