// Every protocol the gateway speaks, one codec each. An upstream is reached in the first protocol
// of this list it speaks: the messages protocol first, since the canonical model is spelled in it
// and its encoder costs least.
import type { Operation } from '../providers/provider.ts';
import { CHAT_CODEC } from './chat/codec.ts';
import { GEMINI_CODEC } from './gemini/codec.ts';
import type { ProtocolCodec } from './codec.ts';
import { MESSAGES_CODEC } from './messages/codec.ts';
import { RESPONSES_CODEC } from './responses/codec.ts';

export const CODECS: readonly ProtocolCodec[] = [MESSAGES_CODEC, CHAT_CODEC, RESPONSES_CODEC, GEMINI_CODEC];

export function codecFor(operation: Operation): ProtocolCodec | undefined {
  return CODECS.find((codec) => codec.operation === operation);
}
