// Bedrock models other than Claude, reached through the Converse API while the provider speaks the
// messages protocol to the gateway: the request (spelled in the canonical model, which the messages
// protocol is) is encoded for Converse, and the answer and stream events are decoded back with the
// Converse codec (protocols/converse/). A request Converse cannot carry is answered 400 naming the field.
import type { Json } from '../../../core/protocol/chat-types.ts';
import type { CanonicalRequest } from '../../protocols/canonical/conversation.ts';
import { decodeConverseAnswer } from '../../protocols/converse/decode-answer.ts';
import { converseStreamToCanonical } from '../../protocols/converse/decode-stream.ts';
import { encodeConverseRequest } from '../../protocols/converse/encode-request.ts';
import { TranslationError } from '../../protocols/shared/translation-error.ts';
import type { TranslationSettings } from '../../protocols/translation.ts';
import { bufferedAnswer } from '../buffered-answer.ts';
import type { ProviderResponse } from '../provider.ts';
import { awsErrorMessage, awsErrorName, mapAwsError, messagesErrorBody } from './bedrock-errors.ts';
import { eventStreamMessages } from './event-stream-frames.ts';

/** The Converse body, or the 400 answer that names what Converse cannot carry. */
export function converseBody(json: Record<string, unknown>, upstreamModel: string, settings: TranslationSettings): { body: Json } | { refused: ProviderResponse } {
  try {
    return { body: encodeConverseRequest(json as CanonicalRequest, { upstreamModel, settings }) };
  } catch (error) {
    if (!(error instanceof TranslationError)) throw error;
    const message = `The model "${upstreamModel}" is reached through Bedrock Converse. ${error.message}`;
    return { refused: bufferedAnswer(400, { 'x-should-retry': 'false' }, Buffer.from(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message } }))) };
  }
}

export function converseAnswerAsMessages(bytes: Buffer, model: string): ProviderResponse {
  const answer = decodeConverseAnswer(JSON.parse(bytes.toString('utf8')) as Json, model);
  return bufferedAnswer(200, {}, Buffer.from(JSON.stringify(answer)));
}

export async function* converseStreamAsSse(body: AsyncIterable<Uint8Array>, model: string): AsyncGenerator<Uint8Array> {
  const translation = converseStreamToCanonical(model);
  let state = translation.initial({ created: Math.floor(Date.now() / 1000) });
  const frames = (events: Array<{ event?: string; data: unknown }>) => Buffer.from(events.map((e) => `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`).join(''));
  for await (const message of eventStreamMessages(body)) {
    if (message.headers[':message-type'] !== 'event') {
      const name = awsErrorName(message.headers[':exception-type'] ?? message.headers[':error-code']);
      const text = message.headers[':message-type'] === 'error' ? (message.headers[':error-message'] ?? '') : awsErrorMessage(message.body);
      yield Buffer.from(`event: error\ndata: ${messagesErrorBody(mapAwsError(name, 500), name, text)}\n\n`);
      return;
    }
    const step = translation.next(state, { event: message.headers[':event-type'], data: JSON.parse(Buffer.from(message.body).toString('utf8')) });
    state = step.state;
    if (step.events.length > 0) yield frames(step.events);
  }
  const end = translation.finish(state);
  if (end.events.length > 0) yield frames(end.events);
}
