// The built-in `demo` provider: a text model for every text protocol (chat-completions, messages,
// Responses; Gemini clients reach it through translation), an image model and an embedding model,
// with no upstream account. Answers are deterministic, streamed in several chunks with honest usage;
// a request that forces a tool call gets one (demo-tool-call.ts), so tool round trips can be tested.
import { messagesErrorBody, openAiErrorBody } from '../../../core/protocol/error-bodies.ts';
import { randomBase62 } from '../../auth/random-tokens.ts';
import type { RequestAbort } from '../../relay/request-abort.ts';
import type { ModelInfo, Operation, Provider, ProviderRequest, ProviderResponse, RoutingSettings } from '../provider.ts';
import { encodeSse } from '../../../core/protocol/sse.ts';
import { chatCompletionFrames, chatCompletionJson, chatToolFrames, chatToolJson } from './demo-chat-body.ts';
import { DEMO_EMBEDDING_MODEL, demoEmbeddings } from './demo-embeddings.ts';
import { DEMO_IMAGE_MODEL, DemoImages, type DemoImageLimits } from './demo-images.ts';
import { messageFrames, messageJson, messageToolFrames, messageToolJson } from './demo-messages-body.ts';
import { forcedChatCall, forcedMessagesCall } from './demo-tool-call.ts';
import { demoResponses } from './demo-responses.ts';
import { ResponseStore } from './response-store.ts';
import { completeDemo, countTokens } from './demo-text.ts';
import { promptText } from './prompt-text.ts';

export const DEMO_TEXT_MODEL = 'demo-chat';
export { DEMO_IMAGE_MODEL, DEMO_MAX_IMAGES } from './demo-images.ts';
/** Roles the demo model understands in the messages protocol (system entries may come mid-conversation). */
const DEMO_MESSAGE_ROLES = ['user', 'assistant', 'system'];

export interface DemoProviderOptions {
  name?: string;
  /** Pause between stream chunks, so streaming is visible; 0 for benchmarks. */
  chunkDelayMs?: number;
  priority?: number;
  weight?: number;
  routing?: RoutingSettings;
  /** Pixel budget per request and concurrent renders of the image model. */
  imageLimits?: DemoImageLimits;
}

async function* once(bytes: Buffer): AsyncIterable<Uint8Array> {
  yield bytes;
}

function json(status: number, body: unknown): ProviderResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: once(Buffer.from(JSON.stringify(body))) };
}

export class DemoProvider implements Provider {
  readonly type = 'demo';
  readonly name: string;
  readonly models: ModelInfo[];
  readonly routing?: RoutingSettings;
  private readonly chunkDelayMs: number;
  private readonly imageModel: DemoImages;
  private readonly stored = new ResponseStore();

  constructor(options: DemoProviderOptions = {}) {
    this.name = options.name ?? 'demo';
    this.chunkDelayMs = options.chunkDelayMs ?? 25;
    this.imageModel = new DemoImages(options.imageLimits);
    this.routing = options.routing;
    const created = Date.UTC(2026, 0, 1) / 1000;
    const rank = { ...(options.priority !== undefined ? { priority: options.priority } : {}), ...(options.weight !== undefined ? { weight: options.weight } : {}) };
    this.models = [
      { id: DEMO_TEXT_MODEL, upstreamModel: DEMO_TEXT_MODEL, kind: 'text', displayName: 'Demo chat (deterministic)', created, ...rank },
      { id: DEMO_IMAGE_MODEL, upstreamModel: DEMO_IMAGE_MODEL, kind: 'image', displayName: 'Demo image (deterministic)', created, ...rank },
      { id: DEMO_EMBEDDING_MODEL, upstreamModel: DEMO_EMBEDDING_MODEL, kind: 'embedding', displayName: 'Demo embedding (deterministic)', created, ...rank },
    ];
  }

  /** Every operation of the OpenAI and messages protocols; Gemini clients reach it through translation. */
  supports(operation: Operation): boolean {
    return !operation.startsWith('gemini');
  }

  async send(request: ProviderRequest): Promise<ProviderResponse> {
    switch (request.operation) {
      case 'chat':
        return this.chat(request);
      case 'messages':
        return this.messages(request);
      case 'count_tokens':
        return json(200, { input_tokens: countTokens(promptText(request.json).all) });
      case 'images':
        return this.images(request);
      case 'responses':
        return this.responses(request);
      case 'response_lookup':
        return this.lookup(request);
      case 'embeddings': {
        const result = demoEmbeddings(request.json, request.upstreamModel);
        return json(result.status, result.body);
      }
      default:
        return json(400, openAiErrorBody(400, `The demo provider does not speak ${request.operation}.`));
    }
  }

  async close(): Promise<void> {}

  private chat(request: ProviderRequest): ProviderResponse {
    const body = request.json;
    if (body.n !== undefined && body.n !== 1) {
      return json(400, openAiErrorBody(400, `${DEMO_TEXT_MODEL} produces one choice; set n to 1 or leave it out.`, { param: 'n' }));
    }
    // The gateway leaves sampling fields to the model; this one, like most, takes 0 to 2.
    const temperature = body.temperature;
    if (temperature !== undefined && temperature !== null && (typeof temperature !== 'number' || temperature < 0 || temperature > 2)) {
      return json(400, openAiErrorBody(400, `temperature must be a number from 0 to 2, got ${JSON.stringify(temperature)}.`, { param: 'temperature' }));
    }
    const text = promptText(body);
    const id = `chatcmpl-${randomBase62(24)}`;
    const created = Math.floor(Date.now() / 1000);
    const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    const call = forcedChatCall(body, text.lastUser);
    if (call) {
      const inputTokens = countTokens(text.all);
      if (!request.stream) return json(200, chatToolJson(id, request.upstreamModel, created, call, inputTokens));
      return this.stream(chatToolFrames(id, request.upstreamModel, created, call, inputTokens, includeUsage), request.signal);
    }
    const maxTokens = (body.max_completion_tokens ?? body.max_tokens) as number | undefined;
    const completion = completeDemo(text.lastUser, text.all, maxTokens);
    if (!request.stream) return json(200, chatCompletionJson(id, request.upstreamModel, created, completion));
    return this.stream(chatCompletionFrames(id, request.upstreamModel, created, completion, includeUsage), request.signal);
  }

  private messages(request: ProviderRequest): ProviderResponse {
    const messages = request.json.messages as Array<{ role?: unknown }>;
    const badRole = messages.findIndex((m) => !DEMO_MESSAGE_ROLES.includes(m?.role as string));
    if (badRole >= 0) {
      return json(400, messagesErrorBody(400, `messages.${badRole}.role: must be one of ${DEMO_MESSAGE_ROLES.join(', ')}, got ${JSON.stringify(messages[badRole]?.role)}.`));
    }
    const text = promptText(request.json);
    const id = `msg_${randomBase62(24)}`;
    const call = forcedMessagesCall(request.json, text.lastUser);
    if (call) {
      const inputTokens = countTokens(text.all);
      if (!request.stream) return json(200, messageToolJson(id, request.upstreamModel, call, inputTokens));
      return this.stream(messageToolFrames(id, request.upstreamModel, call, inputTokens), request.signal);
    }
    const completion = completeDemo(text.lastUser, text.all, request.json.max_tokens as number);
    if (!request.stream) return json(200, messageJson(id, request.upstreamModel, completion));
    return this.stream(messageFrames(id, request.upstreamModel, completion), request.signal);
  }

  private responses(request: ProviderRequest): ProviderResponse {
    const result = demoResponses(request.json, request.upstreamModel, randomBase62(24), Math.floor(Date.now() / 1000), this.stored);
    if ('error' in result) return json(result.error.status, result.error.body);
    if (!request.stream) return json(200, result.response);
    return this.stream(
      result.events.map((e) => encodeSse(e.data, e.event)),
      request.signal,
    );
  }

  /** GET and DELETE /v1/responses/{id} for the responses the demo stored. */
  private lookup(request: ProviderRequest): ProviderResponse {
    const id = decodeURIComponent((request.subpath ?? '').replace(/^\//, ''));
    const stored = /^[^/]+$/.test(id) ? this.stored.get(id) : undefined;
    if (!stored) return json(404, openAiErrorBody(404, `No response found with id '${id}'.`, { type: 'invalid_request_error' }));
    if (request.method === 'DELETE') {
      this.stored.delete(id);
      return json(200, { id, object: 'response.deleted', deleted: true });
    }
    return json(200, stored.response);
  }

  private async images(request: ProviderRequest): Promise<ProviderResponse> {
    const answer = await this.imageModel.answer(request.json);
    return json(answer.status, answer.body);
  }

  private stream(frames: string[], signal: RequestAbort): ProviderResponse {
    const delay = this.chunkDelayMs;
    async function* generate(): AsyncIterable<Uint8Array> {
      for (let i = 0; i < frames.length; i += 1) {
        if (signal.aborted) return;
        if (i > 0 && delay > 0) await signal.wait(delay).catch(() => undefined);
        if (signal.aborted) return;
        yield Buffer.from(frames[i]!);
      }
    }
    return { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' }, body: generate() };
  }
}

