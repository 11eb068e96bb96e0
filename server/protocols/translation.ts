// The translations between the text protocols, keyed by the client's operation and the operation
// the upstream speaks (Responses clients reach chat-completions and messages upstreams through
// responses-translators.ts). Shared code asks a provider what it supports and looks the pair
// up here; it never branches on a provider's name or type.
import type { Json } from '../../core/protocol/chat-types.ts';
import type { ApiSurface } from '../../core/protocol/error-bodies.ts';
import type { Operation, Provider } from '../providers/provider.ts';
import { chatRequestToMessages } from './chat/decode-request.ts';
import { chatResponseToMessages } from './chat/decode-answer.ts';
import { chatStreamToMessages } from './chat/decode-stream.ts';
import { messagesRequestToChat } from './chat/encode-request.ts';
import { messagesResponseToChat } from './chat/encode-answer.ts';
import { messagesStreamToChat } from './chat/encode-stream.ts';
import { RESPONSES_TO_CHAT, RESPONSES_TO_MESSAGES } from './responses/context.ts';
import type { StreamTranslation } from './shared/stream-types.ts';

export interface TranslationSettings {
  /** max_tokens for a messages upstream when a chat client sent none. */
  defaultMaxTokens: number;
  /** The field a chat upstream reads the output limit from. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
}

export const DEFAULT_TRANSLATION: TranslationSettings = { defaultMaxTokens: 4096, maxTokensField: 'max_tokens' };

export interface Translator {
  readonly clientOperation: Operation;
  readonly upstreamOperation: Operation;
  /** The protocol of the upstream's answers (usage is read from them, before translation). */
  readonly upstreamSurface: ApiSurface;
  request(body: Json, upstreamModel: string, settings: TranslationSettings): Json;
  response(body: Json, context: { created: number }): Json;
  readonly stream: StreamTranslation<unknown>;
  /** A translation bound to the request it serves, for answers that depend on it (Responses). */
  forRequest?(body: Json): Translator;
}

const TRANSLATORS: Translator[] = [
  {
    clientOperation: 'chat',
    upstreamOperation: 'messages',
    upstreamSurface: 'messages',
    request: (body, upstreamModel, settings) => chatRequestToMessages(body, { upstreamModel, defaultMaxTokens: settings.defaultMaxTokens }),
    response: (body, context) => messagesResponseToChat(body, context) as unknown as Json,
    stream: messagesStreamToChat as StreamTranslation<unknown>,
  },
  {
    clientOperation: 'messages',
    upstreamOperation: 'chat',
    upstreamSurface: 'openai',
    request: (body, upstreamModel, settings) => messagesRequestToChat(body, { upstreamModel, maxTokensField: settings.maxTokensField }),
    response: (body) => chatResponseToMessages(body) as unknown as Json,
    stream: chatStreamToMessages as StreamTranslation<unknown>,
  },
  RESPONSES_TO_CHAT,
  RESPONSES_TO_MESSAGES,
];

/** How a provider can serve an operation: natively, through a translation, or not at all. */
export type Adaptation = { translator?: undefined; operation: Operation } | { translator: Translator; operation: Operation };

export function adaptationFor(provider: Provider, operation: Operation): Adaptation | undefined {
  if (provider.supports(operation)) return { operation };
  const translator = TRANSLATORS.find((t) => t.clientOperation === operation && provider.supports(t.upstreamOperation));
  return translator ? { translator, operation: translator.upstreamOperation } : undefined;
}

/** The translation from a client operation to an upstream operation, if one exists. */
export function translatorBetween(client: Operation, upstream: Operation): Translator | undefined {
  return TRANSLATORS.find((t) => t.clientOperation === client && t.upstreamOperation === upstream);
}
