// The Responses codec, for Responses clients of upstreams of another protocol. A response object
// repeats parts of the request (instructions, tools, sampling) and namespaced function names must
// be restored in answers, so the codec is bound to the request it answers (`forRequest`); the
// unbound codec answers as for a request with none of those.
//
// Only its client half exists: every provider that speaks Responses also speaks chat completions,
// so no upstream is reached through Responses, and its upstream half (encodeRequest, decodeAnswer,
// decodeStream) would be code nothing runs.
import type { Json } from '../../../core/protocol/chat-types.ts';
import type { ProtocolCodec } from '../codec.ts';
import { asRecord, asString } from '../shared/json-values.ts';
import type { StreamTranslation } from '../shared/stream-types.ts';
import { decodeResponsesRequest } from './decode-request.ts';
import { messagesAnswerToResponses } from './encode-answer.ts';
import { messagesStreamToResponses } from './encode-stream.ts';
import { EMPTY_CONTEXT, responseEcho, type NamespacedName, type ResponsesContext } from './response-object.ts';
import { namespacedName } from './tools.ts';

/** What an answer needs from the request: the fields a response repeats, the namespaced function names. */
export function responsesContext(body: Json): ResponsesContext {
  const namespaced = new Map<string, NamespacedName>();
  for (const entry of Array.isArray(body.tools) ? body.tools : []) {
    const tool = asRecord(entry);
    const namespace = asString(tool.name);
    if (tool.type !== 'namespace' || !namespace || !Array.isArray(tool.tools)) continue;
    for (const inner of tool.tools) {
      const name = asString(asRecord(inner).name);
      if (name) namespaced.set(namespacedName(namespace, name), { namespace, name });
    }
  }
  return { echo: responseEcho(body), namespaced };
}

function bound(context: ResponsesContext): ProtocolCodec {
  return {
    operation: 'responses',
    surface: 'openai',
    name: 'the Responses API',
    decodeRequest: (body) => decodeResponsesRequest(body, namespacedName),
    encodeAnswer: (answer, { created }) => messagesAnswerToResponses(answer as unknown as Json, context, created) as unknown as Json,
    encodeStream: messagesStreamToResponses(context) as StreamTranslation<unknown>,
    forRequest: (body) => bound(responsesContext(body)),
  };
}

export const RESPONSES_CODEC: ProtocolCodec = bound(EMPTY_CONTEXT);
