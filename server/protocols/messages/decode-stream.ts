// A messages upstream's events are canonical already: each passes as it is. A text delta, most of
// a stream, is also read without parsing (rawText), so a translation can skip a parse and a stringify.
import { identityStream } from '../shared/identity-stream.ts';
import { JSON_STRING, type StreamTranslation } from '../shared/stream-types.ts';

const TEXT_DELTA = new RegExp(`^\\{\\s*"type"\\s*:\\s*"content_block_delta"\\s*,\\s*"index"\\s*:\\s*\\d+\\s*,\\s*"delta"\\s*:\\s*\\{\\s*"type"\\s*:\\s*"text_delta"\\s*,\\s*"text"\\s*:\\s*(${JSON_STRING})\\s*\\}\\s*\\}$`);

export const messagesStreamToCanonical: StreamTranslation<null> = {
  ...identityStream,
  rawText: (_state, data) => TEXT_DELTA.exec(data)?.[1],
};
