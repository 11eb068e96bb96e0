// Reads an `application/vnd.amazon.eventstream` body as it arrives: cuts it into messages at the
// length each prelude announces and decodes each with AWS's codec, which checks both CRCs. The codec
// is loaded with the first stream. Pulls the next chunk only when the reader asks for the next
// message, so the relay's backpressure reaches the upstream connection.
export interface EventStreamMessage {
  headers: Record<string, string>;
  body: Uint8Array;
}

export class EventStreamFramingError extends Error {
  override readonly name = 'EventStreamFramingError';
}

interface Codec {
  decode(frame: Uint8Array): { headers: Record<string, { type: string; value: unknown }>; body: Uint8Array };
}

let codec: Promise<Codec> | undefined;

function loadCodec(): Promise<Codec> {
  codec ??= Promise.all([import('@smithy/eventstream-codec'), import('@smithy/util-utf8')]).then(
    ([{ EventStreamCodec }, { toUtf8, fromUtf8 }]) => new EventStreamCodec(toUtf8, fromUtf8) as unknown as Codec,
  );
  return codec;
}

const PRELUDE_BYTES = 12;
/** AWS caps an event-stream message at 16 MiB; a larger length means the stream is not one. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024 + PRELUDE_BYTES + 4;

export async function* eventStreamMessages(body: AsyncIterable<Uint8Array>): AsyncGenerator<EventStreamMessage> {
  const decoder = await loadCodec();
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of body) {
    pending = pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([pending, chunk]);
    while (pending.length >= 4) {
      const length = pending.readUInt32BE(0);
      if (length < PRELUDE_BYTES + 4 || length > MAX_MESSAGE_BYTES) throw new EventStreamFramingError(`an event-stream message announced ${length} bytes`);
      if (pending.length < length) break;
      const frame = pending.subarray(0, length);
      pending = pending.subarray(length);
      let message: ReturnType<Codec['decode']>;
      try {
        message = decoder.decode(frame);
      } catch (error) {
        throw new EventStreamFramingError(`an event-stream message was corrupt: ${(error as Error).message}`);
      }
      const headers: Record<string, string> = {};
      for (const name in message.headers) headers[name] = String(message.headers[name]!.value);
      yield { headers, body: message.body };
    }
  }
  if (pending.length > 0) throw new EventStreamFramingError(`the event stream ended inside a message (${pending.length} bytes left)`);
}
