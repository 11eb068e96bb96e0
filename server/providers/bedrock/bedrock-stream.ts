// A Bedrock InvokeModelWithResponseStream body as the messages protocol's server-sent events: each
// `chunk` message carries one messages event, base64-encoded JSON in `bytes`; an exception message
// becomes the protocol's `error` event and ends the stream.
import { awsErrorMessage, awsErrorName, mapAwsError, messagesErrorBody } from './bedrock-errors.ts';
import { eventStreamMessages } from './event-stream-frames.ts';

function sse(event: string, data: string): Buffer {
  return Buffer.from(`event: ${event}\ndata: ${data}\n\n`);
}

export async function* bedrockStreamAsSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const message of eventStreamMessages(body)) {
    const kind = message.headers[':message-type'];
    if (kind === 'event') {
      if (message.headers[':event-type'] !== 'chunk') continue;
      const payload = JSON.parse(Buffer.from(message.body).toString('utf8')) as { bytes?: string };
      if (typeof payload.bytes !== 'string') continue;
      const data = Buffer.from(payload.bytes, 'base64').toString('utf8');
      const type = (JSON.parse(data) as { type?: unknown }).type;
      yield sse(typeof type === 'string' ? type : 'message', data);
      continue;
    }
    const name = awsErrorName(message.headers[':exception-type'] ?? message.headers[':error-code']);
    const text = kind === 'error' ? (message.headers[':error-message'] ?? '') : awsErrorMessage(message.body);
    yield sse('error', messagesErrorBody(mapAwsError(name, 500), name, text));
    return;
  }
}
