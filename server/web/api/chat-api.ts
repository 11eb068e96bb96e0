// POST /web/api/chat: one user turn of the web chat. The reply streams to the browser as simple
// SSE events (conversation, delta, done, error) whatever protocol the model's provider speaks;
// the history is kept per user, usage is counted for the user (no key), and a stopped answer is
// saved as far as it got.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ApiSurface } from '../../../core/protocol/error-bodies.ts';
import { encodeSse, SseParser } from '../../../core/protocol/sse.ts';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { UpstreamError, type Operation } from '../../providers/provider.ts';
import { readBody } from '../../relay/read-body.ts';
import type { ChatMessage } from '../../store/conversations-repo.ts';
import { StreamUsage } from '../../usage/usage-extractor.ts';
import { checkCsrf, requireApi } from '../session/web-session.ts';
import { streamPiece } from './text-deltas.ts';

const MAX_MESSAGE_CHARS = 32_000;
const MAX_OUTPUT_TOKENS = 2048;

interface ChatBody {
  conversationId?: string | null;
  model: string;
  message: string;
}

function upstreamBody(operation: Operation, model: string, history: ChatMessage[]): Record<string, unknown> {
  const messages = history.map((m) => ({ role: m.role, content: m.content }));
  if (operation === 'chat') return { model, messages, stream: true, stream_options: { include_usage: true }, max_tokens: MAX_OUTPUT_TOKENS };
  return { model, messages, stream: true, max_tokens: MAX_OUTPUT_TOKENS };
}

function errorText(bytes: Buffer, status: number): string {
  try {
    const parsed = JSON.parse(bytes.toString('utf8'));
    if (typeof parsed?.error?.message === 'string') return parsed.error.message;
  } catch {
    // fall through to the status
  }
  return `The model's provider answered ${status}.`;
}

export function registerChatApi(app: FastifyInstance, deps: GatewayDeps): void {
  app.post<{ Body: ChatBody }>(
    '/web/api/chat',
    {
      onRequest: requireApi(deps),
      preHandler: checkCsrf,
      schema: {
        body: {
          type: 'object',
          required: ['model', 'message'],
          properties: {
            conversationId: { type: ['string', 'null'] },
            model: { type: 'string', minLength: 1 },
            message: { type: 'string', minLength: 1, maxLength: MAX_MESSAGE_CHARS },
          },
        },
      },
    },
    async (request, reply) => {
      const user = request.webUser!;
      const { model, message } = request.body;
      const route = deps.router.resolve(model);
      if (!route || route.model.kind !== 'text') return reply.code(404).send({ error: { message: `The model "${model}" is not available.` } });
      const operation: Operation = route.provider.supports('chat') ? 'chat' : 'messages';
      const surface: ApiSurface = operation === 'chat' ? 'openai' : 'messages';

      let conversation = request.body.conversationId ? await deps.store.conversations.find(user.id, request.body.conversationId) : undefined;
      if (request.body.conversationId && !conversation) return reply.code(404).send({ error: { message: 'No such conversation among yours.' } });
      if (!conversation) conversation = { ...(await deps.store.conversations.create(user.id, model, message.replace(/\s+/g, ' ').trim())), messages: [] };
      const userTurn: ChatMessage = { role: 'user', content: message, stopped: false };
      await deps.store.conversations.append(conversation.id, userTurn, model);

      const abort = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) abort.abort();
      });
      const json = upstreamBody(operation, route.model.upstreamModel, [...conversation.messages, userTurn]);
      reply.hijack();
      const out = reply.raw;
      out.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
      const send = (event: string, data: unknown) => {
        if (!out.destroyed) out.write(encodeSse(data, event));
      };
      send('conversation', { id: conversation.id, title: conversation.title });

      const usage = new StreamUsage(surface);
      let answer = '';
      let status = 200;
      try {
        const response = await route.provider.send({
          operation,
          upstreamModel: route.model.upstreamModel,
          body: Buffer.from(JSON.stringify(json)),
          json,
          stream: true,
          query: '',
          headers: {},
          signal: abort.signal,
        });
        if (response.status >= 400) {
          status = response.status;
          send('error', { message: errorText(await readBody(response.body, 1024 * 1024), response.status) });
        } else {
          const parser = new SseParser();
          const handle = (event: string | undefined, data: string) => {
            usage.observe(data);
            const piece = streamPiece(surface, event, data);
            if (piece && 'text' in piece) {
              answer += piece.text;
              send('delta', { text: piece.text });
            } else if (piece && 'error' in piece) {
              status = 502;
              send('error', { message: piece.error });
            }
          };
          for await (const chunk of response.body) for (const e of parser.push(chunk)) handle(e.event, e.data);
          for (const e of parser.end()) handle(e.event, e.data);
        }
      } catch (error) {
        if (!abort.signal.aborted) {
          status = error instanceof UpstreamError ? (error.failure === 'timeout' ? 504 : 502) : 500;
          const reason = error instanceof UpstreamError ? `The model's provider ${error.failure === 'timeout' ? 'timed out' : 'could not be reached'}.` : 'The answer failed.';
          send('error', { message: `${reason} Try again in a moment.` });
          if (!(error instanceof UpstreamError)) request.log.error({ err: error }, 'web chat failed');
        }
      }
      const stopped = abort.signal.aborted;
      if (answer) await deps.store.conversations.append(conversation.id, { role: 'assistant', content: answer, stopped }, model);
      deps.usage.record({ userId: user.id, keyId: '', model, status, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens });
      send('done', { stopped, usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens } });
      out.end();
      return reply as FastifyReply;
    },
  );
}
