// A stream in the other protocol, translated event by event as it arrives: bytes are parsed into
// SSE events (one streaming UTF-8 decoder for the whole body, so a character split across chunks
// stays whole), each event goes through the translation's reducer, and what comes out is written
// once per upstream chunk, by one synchronous Transform (no promise per chunk). Usage is read from
// the upstream's own events, so a stream cut short still counts what the upstream reported.
import { Transform } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { ApiSurface } from '../../core/protocol/error-bodies.ts';
import { encodeSse, SseParser, type SseEvent } from '../../core/protocol/sse.ts';
import { parseJsonText } from '../providers/translate/json-values.ts';
import type { StreamEventOut } from '../providers/translate/stream-types.ts';
import { TranslationError } from '../providers/translate/translation-error.ts';
import type { Translator } from '../providers/translate/translators.ts';
import { isUsageOnlyEvent, StreamUsage } from '../usage/usage-extractor.ts';
import { pipeUpstream } from './pipe-upstream.ts';
import type { RelayOptions } from './relay-response.ts';
import { streamErrorEvent } from './stream-error-event.ts';

export function translatedStream(
  surface: ApiSurface,
  body: AsyncIterable<Uint8Array>,
  state: FastifyRequest['gateway'],
  options: RelayOptions & { translator: Translator },
): Transform {
  const translation = options.translator.stream;
  const parser = new SseParser();
  const usage = new StreamUsage(options.translator.upstreamSurface, state);
  let current = translation.initial({ created: Math.floor(Date.now() / 1000) });
  let failed = false;

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
    failed = true;
    state.outcomeStatus = 502;
    state.outcome = 'upstream_cut';
    return streamErrorEvent(surface, message);
  };
  const failedWith = (error: unknown): string => {
    if (error instanceof TranslationError) {
      // The rest of the answer cannot reach the client either: stop the upstream now.
      const text = cutShort(`The upstream provider "${options.providerName}" sent something the client's protocol cannot carry; the answer is incomplete. ${error.message}`);
      options.abort.abort();
      return text;
    }
    const reason = (error as Error)?.message ?? 'stream error';
    return cutShort(`The upstream provider "${options.providerName}" failed during the stream (${reason}); the answer is incomplete. Retry the request.`);
  };

  const out = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      // After a failure only the gateway's own error event is written here.
      if (failed) return callback(null, chunk);
      let text: string;
      try {
        text = translate(parser.push(chunk));
      } catch (error) {
        callback(null, failedWith(error));
        this.end();
        return;
      }
      callback(null, text.length === 0 ? undefined : text);
    },
    flush(callback) {
      if (failed) return callback();
      try {
        const last = translate(parser.end());
        const end = translation.finish(current);
        const text = last + render(end.events);
        if (text) this.push(text);
        if (!end.complete) {
          this.push(cutShort(`The upstream provider "${options.providerName}" closed the stream before it was complete; the answer is cut off. Retry the request.`));
        }
      } catch (error) {
        this.push(failedWith(error));
      }
      callback();
    },
  });
  pipeUpstream(body, out, options.abort, failedWith);
  return out;
}
