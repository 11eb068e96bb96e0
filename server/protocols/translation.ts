// Translation between a client's protocol and an upstream's: the client codec decodes into the
// canonical model, the upstream codec encodes from it (and the reverse for answers and streams).
// Shared code asks a provider what it supports and composes the two codecs; it never branches on a
// provider's name or type, and no translation is written for a pair of protocols.
import type { Json } from '../../core/protocol/chat-types.ts';
import type { ApiSurface } from '../../core/protocol/error-bodies.ts';
import type { Operation, Provider } from '../providers/provider.ts';
import type { ProtocolCodec, TranslationSettings } from './codec.ts';
import { CODECS, codecFor } from './registry.ts';
import { composeStreams } from './shared/compose-streams.ts';
import { GEMINI_COUNT_TO_MESSAGES } from './gemini/count-tokens.ts';
import { GEMINI_BATCH_EMBED_TO_OPENAI, GEMINI_EMBED_TO_OPENAI, OPENAI_EMBEDDINGS_TO_GEMINI } from './gemini/embeddings.ts';
import type { StreamTranslation } from './shared/stream-types.ts';

export { DEFAULT_TRANSLATION, type TranslationSettings } from './codec.ts';

export interface Translator {
  readonly clientOperation: Operation;
  readonly upstreamOperation: Operation;
  /** The protocol of the upstream's answers (usage is read from them, before translation). */
  readonly upstreamSurface: ApiSurface;
  /** `stream` is set where the client's protocol says it outside the body (Gemini names it in the URL). */
  request(body: Json, upstreamModel: string, settings: TranslationSettings, stream?: boolean): Json;
  response(body: Json, context: { created: number }): Json;
  readonly stream: StreamTranslation<unknown>;
  /** A translation bound to the request it serves, for answers that depend on it (Responses). */
  forRequest?(body: Json): Translator;
}

type UpstreamCodec = Required<Pick<ProtocolCodec, 'encodeRequest' | 'decodeAnswer' | 'decodeStream'>> & ProtocolCodec;

function speaksUpstream(codec: ProtocolCodec): codec is UpstreamCodec {
  return codec.encodeRequest !== undefined && codec.decodeAnswer !== undefined && codec.decodeStream !== undefined;
}

function compose(client: ProtocolCodec, upstream: UpstreamCodec): Translator {
  return {
    clientOperation: client.operation,
    upstreamOperation: upstream.operation,
    upstreamSurface: upstream.surface,
    request: (body, upstreamModel, settings, stream) => {
      const canonical = client.decodeRequest(body);
      // A request that does not stream says nothing about it, as clients write them.
      if (stream === true) canonical.stream = true;
      else if (stream === false) delete canonical.stream;
      return upstream.encodeRequest(canonical, { upstreamModel, settings });
    },
    response: (body, context) => client.encodeAnswer(upstream.decodeAnswer(body), context),
    stream: composeStreams(upstream.decodeStream, client.encodeStream),
    forRequest: client.forRequest ? (body) => compose(client.forRequest!(body), upstream) : undefined,
  };
}

/** The operations beside generation that a protocol has (counting, embeddings): one small translation each. */
const AUXILIARY: readonly Translator[] = [GEMINI_COUNT_TO_MESSAGES, GEMINI_EMBED_TO_OPENAI, GEMINI_BATCH_EMBED_TO_OPENAI, OPENAI_EMBEDDINGS_TO_GEMINI];

const composed = new Map<string, Translator>();

/** The translation from a client operation to an upstream operation, if both protocols have codecs. */
export function translatorBetween(client: Operation, upstream: Operation): Translator | undefined {
  const key = `${client}>${upstream}`;
  let translator = composed.get(key);
  if (!translator) {
    const from = codecFor(client);
    const to = codecFor(upstream);
    if (!from || !to || from === to || !speaksUpstream(to)) return undefined;
    translator = compose(from, to);
    composed.set(key, translator);
  }
  return translator;
}

/** How a provider can serve an operation: natively, through a translation, or not at all. */
export type Adaptation = { translator?: undefined; operation: Operation } | { translator: Translator; operation: Operation };

/** What adaptationFor found, per provider (a provider's operations never change), operation and model. */
const adaptations = new WeakMap<Provider, Map<Operation, Map<string | undefined, Adaptation | null>>>();

export function adaptationFor(provider: Provider, operation: Operation, upstreamModel?: string): Adaptation | undefined {
  let byOperation = adaptations.get(provider);
  if (!byOperation) adaptations.set(provider, (byOperation = new Map()));
  let byModel = byOperation.get(operation);
  if (!byModel) byOperation.set(operation, (byModel = new Map()));
  let found = byModel.get(upstreamModel);
  if (found === undefined) {
    found = findAdaptation(provider, operation, upstreamModel) ?? null;
    byModel.set(upstreamModel, found);
  }
  return found ?? undefined;
}

function findAdaptation(provider: Provider, operation: Operation, upstreamModel?: string): Adaptation | undefined {
  if (provider.supports(operation, upstreamModel)) return { operation };
  for (const codec of CODECS) {
    if (!provider.supports(codec.operation, upstreamModel)) continue;
    const translator = translatorBetween(operation, codec.operation);
    if (translator) return { translator, operation: codec.operation };
  }
  const auxiliary = AUXILIARY.find((t) => t.clientOperation === operation && provider.supports(t.upstreamOperation, upstreamModel));
  return auxiliary ? { translator: auxiliary, operation: auxiliary.upstreamOperation } : undefined;
}
