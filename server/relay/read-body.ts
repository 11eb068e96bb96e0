// Collects an upstream body up to a size limit (error bodies and JSON answers). A node stream is
// read with its events (one promise per body); other async iterables chunk by chunk.
import { Readable } from 'node:stream';
import { settleOnEvents } from './stream-events.ts';

export function readBody(body: AsyncIterable<Uint8Array>, limit: number): Promise<Buffer> {
  return body instanceof Readable ? readStream(body, limit) : readIterable(body, limit);
}

function readStream(body: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  return settleOnEvents(
    body,
    (chunk) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return undefined;
      }
      body.destroy();
      return { error: new RangeError(`upstream body exceeds ${limit} bytes`) };
    },
    () => (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)),
  );
}

async function readIterable(body: AsyncIterable<Uint8Array>, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) throw new RangeError(`upstream body exceeds ${limit} bytes`);
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  return Buffer.concat(chunks);
}
