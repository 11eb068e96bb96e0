// The chat-completions codec: requests, answers and streams between that protocol and the
// canonical model.
import type { Json } from '../../../core/protocol/chat-types.ts';
import type { CanonicalAnswer } from '../canonical/conversation.ts';
import type { ProtocolCodec } from '../codec.ts';
import type { StreamTranslation } from '../shared/stream-types.ts';
import { decodeChatAnswer } from './decode-answer.ts';
import { decodeChatRequest } from './decode-request.ts';
import { chatStreamToMessages } from './decode-stream.ts';
import { encodeChatAnswer } from './encode-answer.ts';
import { encodeChatRequest } from './encode-request.ts';
import { messagesStreamToChat } from './encode-stream.ts';

export const CHAT_CODEC: ProtocolCodec = {
  operation: 'chat',
  surface: 'openai',
  name: 'chat-completions',
  decodeRequest: decodeChatRequest,
  encodeRequest: (request, { upstreamModel, settings }) => encodeChatRequest(request, { upstreamModel, maxTokensField: settings.maxTokensField }),
  decodeAnswer: (body) => decodeChatAnswer(body) as CanonicalAnswer,
  encodeAnswer: (answer, context) => encodeChatAnswer(answer as unknown as Json, context) as unknown as Json,
  decodeStream: chatStreamToMessages as StreamTranslation<unknown>,
  encodeStream: messagesStreamToChat as StreamTranslation<unknown>,
};
