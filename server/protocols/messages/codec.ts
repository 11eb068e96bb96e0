// The messages protocol's codec. The canonical model is spelled in its blocks and events, so
// decoding is the identity and encoding sets what the upstream needs (its model name, a max_tokens)
// and judges what other protocols left in `extras`.
import type { Json } from '../../../core/protocol/chat-types.ts';
import type { CanonicalAnswer, CanonicalRequest } from '../canonical/conversation.ts';
import type { EncodeTarget, ProtocolCodec } from '../codec.ts';
import { judgeExtras, openAiExtrasRules } from '../shared/foreign-fields.ts';
import { asNumber } from '../shared/json-values.ts';
import { identityStream } from '../shared/identity-stream.ts';
import { messagesStreamToCanonical } from './decode-stream.ts';
import { refuse } from '../shared/translation-error.ts';

const NAME = 'the messages protocol';
const EXTRAS_RULES = openAiExtrasRules(NAME);

export function encodeMessagesRequest(request: CanonicalRequest, target: EncodeTarget): Json {
  if (request.extras !== undefined) judgeExtras(request.extras, EXTRAS_RULES);
  const temperature = asNumber(request.temperature);
  if (temperature !== undefined && temperature > 1) refuse('temperature', `${NAME} takes 0 to 1, not ${temperature}.`);
  // The request's fields but its extras (judged above), in one copy.
  const body: Json = {};
  for (const name in request) if (name !== 'extras') body[name] = request[name as keyof CanonicalRequest];
  body.model = target.upstreamModel;
  body.max_tokens = request.max_tokens ?? target.settings.defaultMaxTokens;
  return body;
}

export const MESSAGES_CODEC: ProtocolCodec = {
  operation: 'messages',
  surface: 'messages',
  name: NAME,
  decodeRequest: (body) => body as CanonicalRequest,
  encodeRequest: encodeMessagesRequest,
  decodeAnswer: (body) => body as unknown as CanonicalAnswer,
  encodeAnswer: ({ created: _created, ...answer }) => answer as unknown as Json,
  decodeStream: messagesStreamToCanonical,
  encodeStream: identityStream,
};
