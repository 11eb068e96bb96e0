// The translations for Responses clients: to a chat-completions upstream and to a messages
// upstream. A response object repeats parts of the request (instructions, tools, sampling) and
// namespaced function names must be restored in answers, so `forRequest` binds each translation
// to the request it serves; the unbound translator answers as for a request with none of those.
import type { Json } from '../../../core/protocol/chat-types.ts';
import { asRecord, asString } from '../shared/json-values.ts';
import { chatAnswerToResponses, messagesAnswerToResponses } from './encode-answer.ts';
import { chatStreamToResponses } from './old-from-chat-stream.ts';
import { messagesStreamToResponses } from './encode-stream.ts';
import { EMPTY_CONTEXT, responseEcho, type NamespacedName, type ResponsesContext } from './response-object.ts';
import { responsesRequestToChat } from './old-to-chat-request.ts';
import { responsesRequestToMessages } from './decode-request.ts';
import { namespacedName } from './tools.ts';
import type { StreamTranslation } from '../shared/stream-types.ts';
import type { Translator } from '../translation.ts';

/** What an answer translation needs from the request; the request translation checks the tools. */
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

type Bindable = Omit<Translator, 'forRequest' | 'response' | 'stream'>;

function bindable(base: Bindable, answer: (body: Json, context: ResponsesContext, created: number) => Json, stream: (context: ResponsesContext) => StreamTranslation<unknown>): Translator {
  const bound = (context: ResponsesContext): Translator => ({
    ...base,
    response: (body, { created }) => answer(body, context, created),
    stream: stream(context),
  });
  return { ...bound(EMPTY_CONTEXT), forRequest: (body) => bound(responsesContext(body)) };
}

export const RESPONSES_TO_CHAT: Translator = bindable(
  {
    clientOperation: 'responses',
    upstreamOperation: 'chat',
    upstreamSurface: 'openai',
    request: (body, upstreamModel, settings) => responsesRequestToChat(body, { upstreamModel, maxTokensField: settings.maxTokensField }, namespacedName),
  },
  (body, context, created) => chatAnswerToResponses(body, context, created) as unknown as Json,
  (context) => chatStreamToResponses(context) as StreamTranslation<unknown>,
);

export const RESPONSES_TO_MESSAGES: Translator = bindable(
  {
    clientOperation: 'responses',
    upstreamOperation: 'messages',
    upstreamSurface: 'messages',
    request: (body, upstreamModel, settings) => responsesRequestToMessages(body, { upstreamModel, defaultMaxTokens: settings.defaultMaxTokens }, namespacedName),
  },
  (body, context, created) => messagesAnswerToResponses(body, context, created) as unknown as Json,
  (context) => messagesStreamToResponses(context) as StreamTranslation<unknown>,
);
