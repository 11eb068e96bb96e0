// A stream framed as one JSON array (`[{…},\r\n{…}]`), as the Gemini API answers
// streamGenerateContent without alt=sse: the events the relay would send as SSE are re-framed, each
// event's data becoming one element. The upstream is always asked for SSE.
import { SseParser } from '../../core/protocol/sse.ts';
import type { StreamSteps } from './write-stream.ts';

export function jsonArraySteps(events: StreamSteps): StreamSteps {
  const parser = new SseParser();
  let opened = false;
  const frame = (text: string): string => {
    let out = '';
    for (const event of parser.push(text)) {
      if (event.comment || event.data === '' || event.data === '[DONE]') continue;
      out += (opened ? ',\r\n' : '[') + event.data;
      opened = true;
    }
    return out;
  };
  const close = (text: string): string => {
    let out = frame(text);
    for (const event of parser.end()) {
      if (event.comment || event.data === '' || event.data === '[DONE]') continue;
      out += (opened ? ',\r\n' : '[') + event.data;
      opened = true;
    }
    return out + (opened ? ']' : '[]');
  };
  const steps: StreamSteps = {
    chunk: (chunk) => {
      const out = events.chunk(chunk);
      if (events.stopped) steps.stopped = true;
      return frame(typeof out === 'string' ? out : out.toString('utf8'));
    },
    end: () => close(events.end()),
    failure: (error) => close(events.failure(error)),
  };
  return steps;
}
