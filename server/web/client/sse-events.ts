// Reads a fetch() response body as server-sent events with the project's one SSE parser (the same
// code the gateway runs), yielding each event's name and its JSON data.
import { SseParser } from '../../../core/protocol/sse.ts';

export interface JsonEvent {
  event: string;
  data: unknown;
}

export async function* readJsonEvents(response: Response): AsyncGenerator<JsonEvent> {
  if (!response.body) return;
  const reader = response.body.getReader();
  const parser = new SseParser();
  const toJson = (events: ReturnType<SseParser['push']>): JsonEvent[] =>
    events.filter((e) => !e.comment && e.data !== '').map((e) => ({ event: e.event ?? 'message', data: JSON.parse(e.data) as unknown }));
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      yield* toJson(parser.push(value));
    }
    yield* toJson(parser.end());
  } finally {
    reader.releaseLock();
  }
}
