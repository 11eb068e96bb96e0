// Feeds bytes through the gateway's translated-stream relay in a given chunking and returns the
// text the client would read, plus the request state it left behind (usage, outcome).
import type { ApiSurface } from '../../../core/protocol/error-bodies.ts';
import type { GatewayRequestState } from '../../../server/gateway-request.ts';
import type { Translator } from '../../../server/providers/translate/translators.ts';
import { translatedStream } from '../../../server/relay/translated-stream.ts';

export type Chunking = 'whole' | 'lines' | 'every-7-bytes' | 'every-byte';
export const CHUNKINGS: Chunking[] = ['whole', 'lines', 'every-7-bytes', 'every-byte'];

export function chunk(bytes: Buffer, how: Chunking): Buffer[] {
  if (how === 'whole') return [bytes];
  if (how === 'lines') {
    const out: Buffer[] = [];
    let start = 0;
    for (let i = 0; i < bytes.length; i += 1) {
      if (bytes[i] === 0x0a) {
        out.push(bytes.subarray(start, i + 1));
        start = i + 1;
      }
    }
    if (start < bytes.length) out.push(bytes.subarray(start));
    return out;
  }
  const size = how === 'every-byte' ? 1 : 7;
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

async function* iterate(chunks: Buffer[]): AsyncIterable<Uint8Array> {
  for (const c of chunks) yield c;
}

export async function runTranslatedStream(
  translator: Translator,
  surface: ApiSurface,
  bytes: Buffer,
  how: Chunking,
  options: { stripUsageChunk?: boolean } = {},
): Promise<{ text: string; writes: number; state: GatewayRequestState }> {
  const state: GatewayRequestState = { surface, inputTokens: 0, outputTokens: 0, usageRecorded: false };
  const out: Buffer[] = [];
  const stream = translatedStream(surface, iterate(chunk(bytes, how)), state, {
    providerName: 'fixture',
    stripUsageChunk: options.stripUsageChunk ?? false,
    abort: new AbortController(),
    translator,
    timing: { upstreamMs: 0 },
    attempts: 1,
  });
  // Flowing mode: one 'data' event per piece the relay pushed (an async iterator would join them).
  await new Promise<void>((resolve, reject) => {
    stream.on('data', (piece: Buffer) => out.push(piece));
    stream.once('end', resolve);
    stream.once('error', reject);
  });
  return { text: Buffer.concat(out).toString('utf8'), writes: out.length, state };
}
