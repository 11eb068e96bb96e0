// POST /web/api/chat: one user turn of the web chat, or (regenerate) a new answer to the last
// question. The reply streams to the browser as simple SSE events (conversation, delta, done,
// error) whatever protocol the model's provider speaks: chat completions and messages directly,
// any other (the Gemini API, Vertex's Gemini models) through the API routes' translation from chat
// completions. The history is kept per user with each answer's tokens, the conversation's system
// prompt goes first in every turn, usage is counted for the user (no key), and a stopped answer is
// saved as far as it got.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ApiSurface } from '../../../core/protocol/error-bodies.ts';
import { encodeSse, SseParser } from '../../../core/protocol/sse.ts';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { UpstreamError, type Operation } from '../../providers/provider.ts';
import { readBody } from '../../relay/read-body.ts';
import { titleFromMessage } from '../../store/conversation-title.ts';
import type { ChatMessage, ConversationDetail } from '../../store/conversations-repo.ts';
import { StreamUsage } from '../../usage/usage-extractor.ts';
import { costOf } from '../../usage/request-cost-of.ts';
import { checkCsrf, requireApi } from '../session/web-session.ts';
import { checkMessage, checkSystemPrompt, InputError } from './conversation-input.ts';
import { NOT_YOURS } from './conversations-api.ts';
import { pieceOf, streamPiece, type StreamPiece } from './text-deltas.ts';
import { adaptationFor, DEFAULT_TRANSLATION, type Adaptation } from '../../protocols/translation.ts';
import { parseJsonText } from '../../protocols/shared/json-values.ts';
import { TranslationError } from '../../protocols/shared/translation-error.ts';
import type { Provider } from '../../providers/provider.ts';
import { RequestAbort } from '../../relay/request-abort.ts';
import { recordUsage } from '../../usage/record-usage.ts';

const MAX_OUTPUT_TOKENS = 2048;

interface ChatBody {
  conversationId?: string | null;
  model: string;
  message?: string;
  /** For a new conversation, or to change an existing one's from this turn on. */
  systemPrompt?: string;
  /** Answer the last question again, replacing the last answer once the new one arrives. */
  regenerate?: boolean;
}

function upstreamBody(operation: Operation, model: string, systemPrompt: string, history: ChatMessage[]): Record<string, unknown> {
  const messages = history.map((m) => ({ role: m.role, content: m.content }));
  if (operation === 'chat') {
    const withSystem = systemPrompt ? [{ role: 'system', content: systemPrompt }, ...messages] : messages;
    return { model, messages: withSystem, stream: true, stream_options: { include_usage: true }, max_tokens: MAX_OUTPUT_TOKENS };
  }
  return { model, ...(systemPrompt ? { system: systemPrompt } : {}), messages, stream: true, max_tokens: MAX_OUTPUT_TOKENS };
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
      preValidation: checkCsrf,
      schema: {
        body: {
          type: 'object',
          required: ['model'],
          properties: {
            conversationId: { type: ['string', 'null'] },
            model: { type: 'string', minLength: 1 },
            message: { type: 'string' },
            systemPrompt: { type: 'string' },
            regenerate: { type: 'boolean' },
          },
        },
      },
    },
    async (request, reply) => {
      const user = request.webUser!;
      const { model, conversationId, regenerate = false } = request.body;
      const route = deps.router.resolve(model);
      if (!route || route.model.kind !== 'text') return reply.code(404).send({ error: { message: `The model "${model}" is not available.` } });
      const adaptation = chatAdaptation(route.provider, route.model.upstreamModel);
      if (!adaptation) return reply.code(400).send({ error: { message: `The model "${model}" cannot be used in the chat: its provider speaks no protocol the chat can be translated to. Pick another model.` } });
      const translator = adaptation.translator;
      // The protocol the chat writes its request in and reads the answer's events in.
      const operation: Operation = translator ? 'chat' : adaptation.operation;
      const surface: ApiSurface = operation === 'chat' ? 'openai' : 'messages';
      const systemPrompt = request.body.systemPrompt === undefined ? undefined : checkSystemPrompt(request.body.systemPrompt);

      let conversation: ConversationDetail | undefined;
      if (conversationId) {
        conversation = await deps.store.conversations.find(user.id, conversationId);
        if (!conversation) return reply.code(404).send({ error: { message: NOT_YOURS } });
      }
      let history: ChatMessage[];
      if (regenerate) {
        if (request.body.message !== undefined) throw new InputError('Send either a message or regenerate, not both.');
        if (!conversation) throw new InputError('Regenerating needs the conversation whose last answer to replace.');
        history = conversation.messages.at(-1)?.role === 'assistant' ? conversation.messages.slice(0, -1) : conversation.messages;
        if (history.at(-1)?.role !== 'user') throw new InputError('This conversation has no question to answer again.');
      } else {
        const message = checkMessage(request.body.message ?? '');
        conversation ??= { ...(await deps.store.conversations.create(user.id, model, titleFromMessage(message), systemPrompt)), systemPrompt: systemPrompt ?? '', messages: [] };
        const userTurn: ChatMessage = { role: 'user', content: message, stopped: false };
        await deps.store.conversations.append(conversation.id, userTurn, model);
        history = [...conversation.messages, userTurn];
      }
      if (systemPrompt !== undefined && systemPrompt !== conversation.systemPrompt) {
        await deps.store.conversations.update(user.id, conversation.id, { systemPrompt });
        conversation.systemPrompt = systemPrompt;
      }

      const abort = new RequestAbort();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) abort.abort();
      });
      const body = upstreamBody(operation, route.model.upstreamModel, conversation.systemPrompt, history);
      let json: Record<string, unknown>;
      try {
        json = translator ? translator.request(body, route.model.upstreamModel, route.provider.translation ?? DEFAULT_TRANSLATION, true) : body;
      } catch (error) {
        if (error instanceof TranslationError) return reply.code(400).send({ error: { message: `This conversation cannot be sent to "${model}": ${error.message}` } });
        throw error;
      }
      reply.hijack();
      const out = reply.raw;
      out.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
      const send = (event: string, data: unknown) => {
        if (!out.destroyed) out.write(encodeSse(data, event));
      };
      send('conversation', { id: conversation.id, title: conversation.title });

      const usage = new StreamUsage(translator ? translator.upstreamSurface : surface);
      let answer = '';
      let status = 200;
      try {
        const response = await route.provider.send({
          operation: adaptation.operation,
          upstreamModel: route.model.upstreamModel,
          body: Buffer.from(JSON.stringify(json)),
          json,
          stream: true,
          query: '',
          headers: {},
          signal: abort,
        });
        if (response.status >= 400) {
          status = response.status;
          send('error', { message: errorText(await readBody(response.body, 1024 * 1024), response.status) });
        } else {
          const parser = new SseParser();
          const show = (piece: StreamPiece) => {
            if (piece && 'text' in piece) {
              answer += piece.text;
              send('delta', { text: piece.text });
            } else if (piece && 'error' in piece) {
              status = 502;
              send('error', { message: piece.error });
            }
          };
          // A translated answer: the upstream's events become chat-completions chunks first.
          const translation = translator?.stream;
          let state = translation?.initial({ created: Math.floor(Date.now() / 1000) });
          const handle = (event: string | undefined, data: string) => {
            usage.observe(data);
            if (!translation) return show(streamPiece(surface, event, data));
            const parsed = data === '[DONE]' ? data : parseJsonText(data);
            if (parsed === undefined) return;
            const step = translation.next(state, { event, data: parsed });
            state = step.state;
            for (const e of step.events) show(pieceOf(surface, e.event, e.data));
          };
          for await (const chunk of response.body) for (const e of parser.push(chunk)) handle(e.event, e.data);
          for (const e of parser.end()) handle(e.event, e.data);
          if (translation) for (const e of translation.finish(state).events) show(pieceOf(surface, e.event, e.data));
        }
      } catch (error) {
        if (error instanceof TranslationError) {
          status = 502;
          send('error', { message: `The model's answer cannot be shown here: ${error.message}` });
        } else if (!abort.aborted) {
          status = error instanceof UpstreamError ? (error.failure === 'timeout' ? 504 : 502) : 500;
          const reason = error instanceof UpstreamError ? `The model's provider ${error.failure === 'timeout' ? 'timed out' : 'could not be reached'}.` : 'The answer failed.';
          send('error', { message: `${reason} Try again in a moment.` });
          if (!(error instanceof UpstreamError)) request.log.error({ err: error }, 'web chat failed');
        }
      }
      const stopped = abort.aborted;
      if (answer) {
        if (regenerate) await deps.store.conversations.removeLastAnswer(conversation.id);
        const counted = usage.inputTokens > 0 || usage.outputTokens > 0;
        const turnUsage = counted ? { usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens } } : {};
        await deps.store.conversations.append(conversation.id, { role: 'assistant', content: answer, stopped, ...turnUsage }, model);
      }
      // The web apps' usage is priced like an API key's (they spend the same provider's tokens).
      const billed = status < 400 || stopped;
      const cost = costOf(deps.prices, { model, provider: route.provider.name, classes: usage.usageClasses, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, estimated: false, billed, at: Date.now() });
      recordUsage(deps, { userId: user.id, keyId: '', model, status, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, costMicros: cost.costMicros, reachedProvider: true });
      const end = () => {
        send('done', { stopped, usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens } });
        out.end();
      };
      // The answer ends once its usage is in the journal.
      if (deps.usageJournal) deps.usageJournal.afterWrite(end);
      else end();
      return reply as FastifyReply;
    },
  );
}

/**
 * How the chat reaches a model: chat completions or messages when its provider speaks one, else
 * chat completions translated to what it speaks (as the API routes do).
 */
function chatAdaptation(provider: Provider, upstreamModel: string): Adaptation | undefined {
  for (const operation of ['chat', 'messages'] as const) if (provider.supports(operation, upstreamModel)) return { operation };
  return adaptationFor(provider, 'chat', upstreamModel);
}
