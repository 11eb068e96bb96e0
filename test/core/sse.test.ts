import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeSse, SseParser } from '../../core/protocol/sse.ts';

test('parses events split at arbitrary byte positions, including inside a multi-byte character', () => {
  const text = encodeSse({ text: 'héllo 世界 🙂' }, 'delta') + encodeSse('[DONE]');
  const bytes = Buffer.from(text);
  for (let cut = 1; cut < bytes.length; cut += 1) {
    const parser = new SseParser();
    const events = [...parser.push(bytes.subarray(0, cut)), ...parser.push(bytes.subarray(cut)), ...parser.end()];
    assert.equal(events.length, 2, `cut at ${cut}`);
    assert.equal(events[0]!.event, 'delta');
    assert.deepEqual(JSON.parse(events[0]!.data), { text: 'héllo 世界 🙂' });
    assert.equal(events[1]!.data, '[DONE]');
  }
});

test('keeps the raw text of each event, handles CRLF, comments and multi-line data', () => {
  const parser = new SseParser();
  const events = parser.push(': keep-alive\r\n\r\nevent: a\r\ndata: one\r\ndata: two\r\n\r\n');
  assert.equal(events.length, 2);
  assert.deepEqual(events[0], { data: '', raw: ': keep-alive\r\n\r\n', comment: true });
  assert.equal(events[1]!.data, 'one\ntwo');
  assert.equal(events[1]!.raw, 'event: a\r\ndata: one\r\ndata: two\r\n\r\n');
});

test('returns a final event that lacks its blank line at end()', () => {
  const parser = new SseParser();
  assert.deepEqual(parser.push('data: x\n'), []);
  const last = parser.end();
  assert.equal(last.length, 1);
  assert.equal(last[0]!.data, 'x');
});

test('encodes multi-line payloads as several data lines', () => {
  assert.equal(encodeSse('a\nb'), 'data: a\ndata: b\n\n');
  assert.equal(encodeSse({ x: 1 }, 'e'), 'event: e\ndata: {"x":1}\n\n');
});
