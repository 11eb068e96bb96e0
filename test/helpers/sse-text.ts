// SSE text as test assertions read it, through the project's one parser (core/protocol/sse.ts, which
// has its own thorough unit tests in test/core/sse.test.ts).
import { SseParser } from '../../core/protocol/sse.ts';

export interface ParsedSse {
  event?: string;
  data: string;
  /** False for comment-only blocks (keep-alives such as `: ping`). */
  hasData: boolean;
}

export function parseSse(text: string): ParsedSse[] {
  const parser = new SseParser();
  return [...parser.push(text), ...parser.end()].map((e) => ({ event: e.event, data: e.data, hasData: !e.comment }));
}
