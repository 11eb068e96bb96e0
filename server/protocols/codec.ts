// A protocol's codec: how its requests, answers and streams are read into the canonical model and
// written from it. A translation from a client's protocol to an upstream's is the client codec's
// decoder followed by the upstream codec's encoder (see translation.ts); adding a protocol is one
// folder with one codec and one line in registry.ts.
import type { Json } from '../../core/protocol/chat-types.ts';
import type { ApiSurface } from '../../core/protocol/error-bodies.ts';
import type { Operation } from '../providers/provider.ts';
import type { CanonicalAnswer, CanonicalRequest } from './canonical/conversation.ts';
import type { StreamContext, StreamTranslation } from './shared/stream-types.ts';

export interface TranslationSettings {
  /** max_tokens for an upstream that requires one when the client sent none. */
  defaultMaxTokens: number;
  /** The field a chat-completions upstream reads the output limit from. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
}

export const DEFAULT_TRANSLATION: TranslationSettings = { defaultMaxTokens: 4096, maxTokensField: 'max_tokens' };

export interface EncodeTarget {
  upstreamModel: string;
  settings: TranslationSettings;
}

export interface ProtocolCodec {
  /** The generation operation this protocol serves. */
  readonly operation: Operation;
  /** The envelope of its errors, and how usage is read from its answers. */
  readonly surface: ApiSurface;
  /** The protocol's name in words ("the messages protocol"). */
  readonly name: string;
  /** The client half: a client's request in, answers and events out. */
  decodeRequest(body: Json): CanonicalRequest;
  encodeAnswer(answer: CanonicalAnswer, context: StreamContext): Json;
  /** Canonical events -> client events of this protocol. */
  readonly encodeStream: StreamTranslation<unknown>;
  /** The upstream half, for a protocol some provider speaks. */
  encodeRequest?(request: CanonicalRequest, target: EncodeTarget): Json;
  decodeAnswer?(body: Json): CanonicalAnswer;
  /** Upstream events of this protocol -> canonical events. */
  readonly decodeStream?: StreamTranslation<unknown>;
  /** A codec bound to the client request it answers, for protocols whose answers repeat the request (Responses). */
  forRequest?(body: Json): ProtocolCodec;
}
