// Feeds bytes through the gateway's translated-stream steps in a given chunking, the way
// server/relay/write-stream.ts drives them, and returns the text the client would read (and how
// many writes), plus the request state it left behind (usage, outcome).
import type { ApiSurface } from '../../../core/protocol/error-bodies.ts';
import type { GatewayRequestState } from '../../../server/gateway-request.ts';
import type { Translator } from '../../../server/protocols/translation.ts';
import { translatedSteps } from '../../../server/relay/translated-stream.ts';
import { RequestAbort } from '../../../server/relay/request-abort.ts';

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

export async function runTranslatedStream(
  translator: Translator,
  surface: ApiSurface,
  bytes: Buffer,
  how: Chunking,
  options: { stripUsageChunk?: boolean } = {},
): Promise<{ text: string; writes: number; state: GatewayRequestState }> {
  const state: GatewayRequestState = { surface, inputTokens: 0, outputTokens: 0, usageRecorded: false };
  const out: string[] = [];
  const steps = translatedSteps(surface, state, {
    providerName: 'fixture',
    stripUsageChunk: options.stripUsageChunk ?? false,
    abort: new RequestAbort(),
    translator,
    timing: { upstreamMs: 0 },
    attempts: 1,
  });
  const send = (text: Buffer | string) => {
    if (text.length > 0) out.push(String(text));
  };
  let stopped = false;
  for (const piece of chunk(bytes, how)) {
    try {
      send(steps.chunk(piece));
    } catch (error) {
      send(steps.failure(error));
      stopped = true;
      break;
    }
    if (steps.stopped) {
      stopped = true;
      break;
    }
  }
  if (!stopped) {
    try {
      send(steps.end());
    } catch (error) {
      send(steps.failure(error));
    }
  }
  return { text: out.join(''), writes: out.length, state };
}
