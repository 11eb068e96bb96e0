// A stream in the other protocol, translated event by event as it arrives: bytes are parsed into
// SSE events (one streaming UTF-8 decoder for the whole body, so a character split across chunks
// stays whole), each event goes through the translation's reducer, and what comes out is written
// once per upstream chunk. Usage is read from the upstream's own events, so a stream cut short
// still counts what the upstream reported.
import type { GatewayRequestState } from '../gateway-request.ts';
import type { ApiSurface } from '../../core/protocol/error-bodies.ts';
import { encodeSse, SseParser, type SseEvent } from '../../core/protocol/sse.ts';
import { parseJsonText } from '../protocols/shared/json-values.ts';
import type { StreamEventOut } from '../protocols/shared/stream-types.ts';
import { TranslationError } from '../protocols/shared/translation-error.ts';
import type { Translator } from '../protocols/translation.ts';
import { isUsageOnlyEvent, StreamUsage } from '../usage/usage-extractor.ts';
import type { RelayOptions } from './relay-response.ts';
import { streamErrorEvent } from './stream-error-event.ts';
import type { StreamSteps } from './write-stream.ts';

export function translatedSteps(surface: ApiSurface, state: GatewayRequestState, options: RelayOptions & { translator: Translator }): StreamSteps {
  const translation = options.translator.stream;
  const parser = new SseParser();
  const usage = new StreamUsage(options.translator.upstreamSurface, state);
  let current = translation.initial({ created: Math.floor(Date.now() / 1000) });
  const rawText = translation.rawTextFrame ? translation.rawText : undefined;
  const rawTextFrame = translation.rawTextFrame;

  const render = (events: StreamEventOut[]): string => {
    let text = '';
    for (const e of events) {
      if (options.stripUsageChunk && isUsageOnlyEvent(e.data)) continue;
      text += encodeSse(e.data, e.event);
    }
    return text;
  };
  const translate = (events: SseEvent[]): string => {
    let text = '';
    for (const e of events) {
      // Keep-alive comments mean the same in both protocols: pass them on.
      if (e.comment) {
        text += e.raw;
        continue;
      }
      // The commonest event, a piece of text, skips the parse and the stringify where both codecs can.
      const literal = rawText?.(current, e.data);
      if (literal !== undefined) {
        const frame = rawTextFrame!(current, literal);
        if (frame !== undefined) {
          usage.countLiteral(literal);
          text += frame;
          continue;
        }
      }
      const data = e.data === '[DONE]' ? '[DONE]' : parseJsonText(e.data);
      if (data === undefined) continue;
      usage.observeParsed(data);
      const step = translation.next(current, { event: e.event, data });
      current = step.state;
      text += render(step.events);
    }
    return text;
  };
  const cutShort = (message: string): string => {
    state.outcomeStatus = 502;
    state.outcome = 'upstream_cut';
    return streamErrorEvent(surface, message);
  };

  const steps: StreamSteps = {
    chunk: (chunk) => translate(parser.push(chunk)),
    end() {
      const last = translate(parser.end());
      const end = translation.finish(current);
      const text = last + render(end.events);
      if (end.complete) return text;
      return text + cutShort(`The upstream provider "${options.providerName}" closed the stream before it was complete; the answer is cut off. Retry the request.`);
    },
    failure(error) {
      if (error instanceof TranslationError) {
        // The rest of the answer cannot reach the client either: the upstream is released now.
        steps.stopped = true;
        return cutShort(`The upstream provider "${options.providerName}" sent something the client's protocol cannot carry; the answer is incomplete. ${error.message}`);
      }
      const reason = (error as Error)?.message ?? 'stream error';
      return cutShort(`The upstream provider "${options.providerName}" failed during the stream (${reason}); the answer is incomplete. Retry the request.`);
    },
  };
  return steps;
}
