// Gemini countTokens for a model served by a messages upstream: the request ({contents, …} or
// {generateContentRequest}) is decoded like a generation request and counted by the upstream's
// count_tokens; its {input_tokens} comes back as {totalTokens}.
import type { Json } from '../../../core/protocol/chat-types.ts';
import { asNumber, asRecord, isRecord } from '../shared/json-values.ts';
import { identityStream } from '../shared/identity-stream.ts';
import type { Translator } from '../translation.ts';
import { decodeGeminiRequest } from './decode-request.ts';

function generationRequest(body: Json): Json {
  return isRecord(body.generateContentRequest) ? body.generateContentRequest : body;
}

export const GEMINI_COUNT_TO_MESSAGES: Translator = {
  clientOperation: 'gemini_count_tokens',
  upstreamOperation: 'count_tokens',
  upstreamSurface: 'messages',
  request(body, upstreamModel) {
    const { model: _model, ...request } = generationRequest(body);
    const canonical = decodeGeminiRequest(request);
    const out: Json = { model: upstreamModel, messages: canonical.messages };
    if (canonical.system) out.system = canonical.system;
    if (canonical.tools) out.tools = canonical.tools;
    return out;
  },
  response: (body) => ({ totalTokens: asNumber(asRecord(body).input_tokens) ?? 0 }),
  stream: identityStream,
};
