// The stream observer reads usage, the terminal event and the generated text of a relayed stream
// however the bytes are cut, and in strip mode sends whole events without the usage-only chunk.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StreamObserver } from '../../../server/relay/stream-observer.ts';

const chat = (content: string) => `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}},"finish_reason":null}],"usage":null}\n\n`;
const usageChunk = 'data: {"id":"c","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":4,"total_tokens":13}}\n\n';
const CHAT = chat('Hé') + chat(' wörld') + chat(' 👋') + usageChunk + 'data: [DONE]\n\n';

const MESSAGES =
  'event: message_start\ndata: {"type":"message_start","message":{"id":"m","usage":{"input_tokens":12,"cache_read_input_tokens":3,"output_tokens":1}}}\n\n' +
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}\n\n' +
  'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":7}}\n\n' +
  'event: message_stop\ndata: {"type":"message_stop"}\n\n';

/** Feeds `bytes` in pieces of `size` (0: as one chunk) and returns what was sent on. */
function relay(bytes: Buffer, size: number, surface: 'openai' | 'messages', strip = false) {
  const target = { inputTokens: 0, outputTokens: 0, generatedChars: 0 };
  const observer = new StreamObserver(surface, target, strip);
  const sent: Buffer[] = [];
  const step = size === 0 ? bytes.length : size;
  for (let i = 0; i < bytes.length; i += step) {
    const out = observer.take(bytes.subarray(i, i + step));
    sent.push(Buffer.from(out));
  }
  sent.push(Buffer.from(observer.end()));
  return { target, finished: observer.finished, sent: Buffer.concat(sent).toString('utf8') };
}

for (const size of [0, 1, 2, 7, 64]) {
  test(`chat stream in pieces of ${size || 'one chunk'}: bytes unchanged, usage, end and generated text read`, () => {
    const r = relay(Buffer.from(CHAT), size, 'openai');
    assert.equal(r.sent, CHAT);
    assert.deepEqual([r.target.inputTokens, r.target.outputTokens], [9, 4]);
    assert.equal(r.finished, true);
    assert.equal(r.target.generatedChars, 'Hé wörld 👋'.length);
  });

  test(`messages stream in pieces of ${size || 'one chunk'}: input counts cache reads, output from message_delta`, () => {
    const r = relay(Buffer.from(MESSAGES), size, 'messages');
    assert.equal(r.sent, MESSAGES);
    assert.deepEqual([r.target.inputTokens, r.target.outputTokens], [15, 7]);
    assert.equal(r.finished, true);
    assert.equal(r.target.generatedChars, 5);
  });

  test(`strip mode in pieces of ${size || 'one chunk'}: whole events, the usage-only chunk removed, usage still read`, () => {
    const r = relay(Buffer.from(CHAT), size, 'openai', true);
    assert.equal(r.sent, CHAT.replace(usageChunk, ''));
    assert.deepEqual([r.target.inputTokens, r.target.outputTokens], [9, 4]);
  });
}

test('CRLF line endings are events too', () => {
  const crlf = CHAT.replace(/\n/g, '\r\n');
  const r = relay(Buffer.from(crlf), 3, 'openai', true);
  assert.equal(r.finished, true);
  assert.deepEqual([r.target.inputTokens, r.target.outputTokens], [9, 4]);
  assert.equal(r.sent, crlf.replace(usageChunk.replace(/\n/g, '\r\n'), ''));
});

test('a stream cut before its terminal event is not finished; a last event without its blank line still counts', () => {
  const cut = relay(Buffer.from(chat('partial') + chat('more')), 5, 'openai');
  assert.equal(cut.finished, false);
  assert.equal(cut.target.generatedChars, 'partialmore'.length);
  const noBlank = relay(Buffer.from(chat('x') + 'data: [DONE]'), 0, 'openai');
  assert.equal(noBlank.finished, true);
});

test('an error event ends the stream; the word error inside generated text does not', () => {
  const textOnly = relay(Buffer.from(chat('an error happened')), 0, 'openai');
  assert.equal(textOnly.finished, false);
  const errorEvent = relay(Buffer.from('event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"busy"}}\n\n'), 0, 'messages');
  assert.equal(errorEvent.finished, true);
});

test('a Responses stream ends with response.completed and reports its usage', () => {
  const stream =
    'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"Hi"}\n\n' +
    'event: response.completed\ndata: {"type":"response.completed","response":{"usage":{"input_tokens":5,"output_tokens":2}}}\n\n';
  const r = relay(Buffer.from(stream), 4, 'openai');
  assert.equal(r.finished, true);
  assert.deepEqual([r.target.inputTokens, r.target.outputTokens], [5, 2]);
  assert.equal(r.target.generatedChars, 2);
});

test('an 8 MB event in 16 KB pieces is observed whole: its text counted, nothing re-read per piece', () => {
  const text = `${'x'.repeat(8 * 1024 * 1024)}\\"`;
  const event = Buffer.from(`data: {"choices":[{"delta":{"content":"${text}"}}],"usage":null}\n\n` + usageChunk + 'data: [DONE]\n\n');
  const r = relay(event, 16 * 1024, 'openai');
  assert.equal(r.sent.length, event.length);
  assert.equal(r.target.generatedChars, text.length);
  assert.deepEqual([r.target.inputTokens, r.target.outputTokens], [9, 4]);
  assert.equal(r.finished, true);
});
