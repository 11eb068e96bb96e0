import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeSse, replaceSseData, SseEventTooLargeError, SseParser, type SseEvent } from '../../core/protocol/sse.ts';

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

/** Every event of `text` fed in two pieces cut at each byte offset (and byte by byte) gives the same events. */
function parseAll(pieces: Array<Uint8Array | string>): SseEvent[] {
  const parser = new SseParser();
  return [...pieces.flatMap((p) => parser.push(p)), ...parser.end()];
}

function everySplit(text: string, check: (events: SseEvent[], how: string) => void): void {
  const bytes = Buffer.from(text);
  check(parseAll([bytes]), 'whole');
  check(parseAll([...bytes].map((b) => Uint8Array.of(b))), 'byte by byte');
  for (let cut = 0; cut <= bytes.length; cut += 1) check(parseAll([bytes.subarray(0, cut), bytes.subarray(cut)]), `cut at ${cut}`);
}

const view = (events: SseEvent[]) => events.map((e) => ({ event: e.event, data: e.data, comment: e.comment ?? false }));

test('LF, CRLF and CR line endings give the same events at every split, and the raw texts give the stream back', () => {
  const lf = 'event: a\ndata: 1\n\n: ping\n\ndata: x\ndata: y\n\n';
  const expected = [
    { event: 'a', data: '1', comment: false },
    { event: undefined, data: '', comment: true },
    { event: undefined, data: 'x\ny', comment: false },
  ];
  for (const ending of ['\n', '\r\n', '\r']) {
    const text = lf.replaceAll('\n', ending);
    everySplit(text, (events, how) => {
      assert.deepEqual(view(events), expected, `${JSON.stringify(ending)} ${how}`);
      assert.equal(events.map((e) => e.raw).join(''), text, `${JSON.stringify(ending)} ${how}`);
    });
  }
});

test('a multi-byte character split inside its bytes is decoded whole, at every split', () => {
  const text = 'data: {"t":"é"}\n\ndata: 日本\n\ndata: 🙂!\n\n';
  everySplit(text, (events, how) => {
    assert.deepEqual(events.map((e) => e.data), ['{"t":"é"}', '日本', '🙂!'], how);
    assert.equal(events.map((e) => e.raw).join('').includes('\ufffd'), false, how);
  });
});

test('a byte order mark at the start of the stream is dropped (bytes and strings), one later on is data', () => {
  everySplit('\ufeffdata: a\n\ndata: \ufeffb\n\n', (events, how) => assert.deepEqual(events.map((e) => e.data), ['a', '\ufeffb'], how));
  assert.deepEqual(parseAll(['\ufeffevent: e\ndata: a\n\n']).map((e) => [e.event, e.data]), [['e', 'a']]);
  assert.deepEqual(parseAll(['', '\ufeffdata: a\n\n']).map((e) => e.data), ['a']);
});

test('field syntax: data without a space, a field without a colon, only one leading space removed, unknown fields ignored', () => {
  const events = parseAll(['data:tight\n\ndata\ndata\n\ndata:  two spaces\n\nevent:e\nid: 7\nretry: 10\nfoo: bar\ndata: x\n\n']);
  assert.deepEqual(
    events.map((e) => [e.event, e.data]),
    [
      [undefined, 'tight'],
      [undefined, '\n'],
      [undefined, ' two spaces'],
      ['e', 'x'],
    ],
  );
});

test('comments: a comment-only block is a comment event, comments inside an event are skipped', () => {
  const events = parseAll([':hi\n: there\n\nevent: e\n: note\ndata: x\n\n']);
  assert.deepEqual(view(events), [
    { event: undefined, data: '', comment: true },
    { event: 'e', data: 'x', comment: false },
  ]);
  assert.equal(events[0]!.raw, ':hi\n: there\n\n');
});

test('stray blank lines belong to the next event\'s raw text; blank lines after the last event are in none', () => {
  const events = parseAll(['\n\ndata: a\n\n\n\n\ndata: b\n\n\n']);
  assert.deepEqual(events.map((e) => [e.data, e.raw]), [
    ['a', '\n\ndata: a\n\n'],
    ['b', '\n\n\ndata: b\n\n'],
  ]);
  assert.deepEqual(parseAll(['\n\n\r\n']), []);
});

test('a last event without its blank line (or with one line ending only) is returned at end(), comments too', () => {
  for (const tail of ['data: x', 'data: x\n', 'data: x\r\n', 'data: x\r']) {
    everySplit(`data: a\n\n${tail}`, (events, how) => {
      assert.deepEqual(events.map((e) => e.data), ['a', 'x'], `${JSON.stringify(tail)} ${how}`);
      assert.equal(events[1]!.raw, tail);
    });
  }
  assert.deepEqual(view(parseAll(['data: a\n\n: bye'])), [
    { event: undefined, data: 'a', comment: false },
    { event: undefined, data: '', comment: true },
  ]);
  const parser = new SseParser();
  parser.push('data: a\n\ndata: b');
  assert.deepEqual(parser.end().map((e) => e.data), ['b']);
  assert.deepEqual(parser.end(), [], 'end() leaves nothing behind');
});

test('replaceSseData swaps the data only: other lines, line endings and blank lines stay', () => {
  assert.equal(replaceSseData('event: e\r\nid: 3\r\ndata: {"a":1}\r\n\r\n', '{"a":2}'), 'event: e\r\nid: 3\r\ndata: {"a":2}\r\n\r\n');
  assert.equal(replaceSseData('\n\nevent: e\rdata: 1\rdata: 2\r: c\r\r', 'x'), '\n\nevent: e\rdata: x\r: c\r\r');
  assert.equal(replaceSseData('data:1\n\n', 'a\nb'), 'data: a\ndata: b\n\n');
  assert.equal(replaceSseData('data: last', 'z'), 'data: z', 'an unterminated last event stays unterminated');
  assert.equal(replaceSseData(': ping\n\n', 'd'), ': ping\ndata: d\n\n');
  const [event] = parseAll([replaceSseData('event: e\ndata: {"a":1}\n\n', '{"a":2}')]);
  assert.deepEqual([event!.event, event!.data], ['e', '{"a":2}']);
});

test('a long event in many small chunks, with the blank line cut across chunks, comes out once and whole', () => {
  const text = `event: big\r\ndata: ${'é'.repeat(100_000)}\r\n\r\ndata: next\r\n\r\n`;
  const bytes = Buffer.from(text);
  const parser = new SseParser();
  const events: SseEvent[] = [];
  const blankLine = bytes.indexOf('\r\n\r\n') + 2;
  const cuts = [...Array.from({ length: Math.ceil(blankLine / 997) }, (_, i) => i * 997), blankLine, bytes.length];
  for (let i = 1; i < cuts.length; i += 1) events.push(...parser.push(bytes.subarray(cuts[i - 1], cuts[i])));
  events.push(...parser.end());
  assert.deepEqual(events.map((e) => [e.event, e.data.length]), [['big', 100_000], [undefined, 4]]);
  assert.equal(events.map((e) => e.raw).join(''), text);
});

test('mixed line endings: any line ending right after another ends the event; CR then LF is one line ending', () => {
  const text = 'data: a\n\r\ndata: b\r\n\ndata: c\n\rdata: d\r\r\ndata: e\r\ndata: f\n\n';
  everySplit(text, (events, how) => {
    assert.deepEqual(events.map((e) => e.data), ['a', 'b', 'c', 'd', 'e\nf'], how);
    assert.equal(events.map((e) => e.raw).join(''), text, how);
  });
});

test('CRLF lines with a lone CR among them: the CR still ends its line (field values never keep a CR)', () => {
  const text = 'event: e\r\ndata: a\rdata: b\r\n\r\ndata: {"x":1}\r\n\r\n';
  everySplit(text, (events, how) => {
    assert.deepEqual(events.map((e) => [e.event, e.data]), [['e', 'a\nb'], [undefined, '{"x":1}']], how);
    assert.equal(events.map((e) => e.raw).join(''), text, how);
  });
});

test('Node Buffers: an empty chunk while a character is split keeps it whole; a U+FEFF the decoder sees first is data', () => {
  const split = new SseParser();
  const first = [
    ...split.push(Buffer.from([...Buffer.from('data: caf'), 0xc3])),
    ...split.push(Buffer.alloc(0)),
    ...split.push(Buffer.from([0xa9, 0x0a, 0x0a])),
    ...split.end(),
  ];
  assert.deepEqual(first.map((e) => e.data), ['café']);
  // The first chunk ends on ASCII (decoded without the streaming decoder), so the decoder's first
  // bytes are a U+FEFF in the middle of the stream: data, not a byte order mark.
  const bom = new SseParser();
  const second = [
    ...bom.push(Buffer.from('data: x')),
    ...bom.push(Buffer.from([0xef, 0xbb, 0xbf, 0x79, 0xc3])),
    ...bom.push(Buffer.from([0xa9, 0x0a, 0x0a])),
    ...bom.end(),
  ];
  assert.deepEqual(second.map((e) => e.data), ['x\uFEFFyé']);
});

test('a parser with a bound refuses an event that grows past it, and stray blank lines count', () => {
  const bounded = new SseParser({ maxEventChars: 1024 });
  assert.equal(bounded.push(`data: ${'a'.repeat(900)}\n\n`).length, 1);
  bounded.push('data: ');
  assert.throws(() => {
    for (let i = 0; i < 20; i += 1) bounded.push('b'.repeat(100));
  }, SseEventTooLargeError);
  const blanks = new SseParser({ maxEventChars: 1024 });
  assert.throws(() => {
    for (let i = 0; i < 20; i += 1) blanks.push('\n'.repeat(100));
  }, SseEventTooLargeError);
  const unbounded = new SseParser();
  for (let i = 0; i < 20; i += 1) unbounded.push('\n'.repeat(100));
});
