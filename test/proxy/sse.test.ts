import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { messageEvents, replySse, startFakeUpstream } from './helpers/fake-upstream.ts';
import { startProxy } from './helpers/proxy-under-test.ts';
import { longSessionBody } from './helpers/long-session.ts';
import { tempDir } from './helpers/temp-dir.ts';

function streamBytes(url: string, body: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/v1/messages?beta=true`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'x-claude-code-session-id': 'sse-sess' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Splits a string's UTF-8 bytes inside every multi-byte character, so no chunk ends on a boundary. */
function splitInsideCharacters(text: string): Buffer[] {
  const bytes = Buffer.from(text);
  const pieces: Buffer[] = [];
  let start = 0;
  for (let i = 1; i < bytes.length; i += 1) {
    // A continuation byte (10xxxxxx) means we are inside a character.
    if ((bytes[i] & 0xc0) === 0x80 && (bytes[i - 1] & 0xc0) !== 0x80) {
      pieces.push(bytes.subarray(start, i));
      start = i;
    }
  }
  pieces.push(bytes.subarray(start));
  return pieces;
}

const UNICODE_TEXT = 'café — naïve 日本語 emoji 🚀 done';

test('with the default extensions the stream reaches the client byte-identical', async (t) => {
  const events = messageEvents({ text: UNICODE_TEXT });
  const upstream = await startFakeUpstream(replySse(events, { 'anthropic-ratelimit-unified-5h-reset': '1795000000' }, 5));
  t.after(() => upstream.close());
  const proxy = await startProxy(t, upstream.url);
  const res = await streamBytes(proxy.url, JSON.stringify(longSessionBody()));
  assert.equal(res.status, 200);
  assert.match(String(res.headers['content-type']), /text\/event-stream/);
  assert.equal(res.bytes.toString(), events.join(''));
  assert.ok(res.bytes.equals(Buffer.from(events.join(''))));
});

test('a multi-byte character split across network chunks arrives intact (observer chain)', async (t) => {
  const events = messageEvents({ text: UNICODE_TEXT });
  const pieces = splitInsideCharacters(events.join(''));
  assert.ok(pieces.length > 5);
  const upstream = await startFakeUpstream(replySse(pieces, {}, 3));
  t.after(() => upstream.close());
  const proxy = await startProxy(t, upstream.url);
  const res = await streamBytes(proxy.url, '{"model":"claude-opus-4-8","stream":true,"messages":[]}');
  const text = res.bytes.toString();
  assert.equal(text.includes('\ufffd'), false);
  assert.equal(text, events.join(''));
});

/** A proxy with an extension that upper-cases text deltas and drops ping events (rewrite mode). */
async function startShoutingProxy(t: TestContext, upstreamUrl: string) {
  const dir = tempDir(t);
  writeFileSync(
    join(dir, 'shout.mjs'),
    `export default { name: 'shout', onStreamEvent(ctx) {
       if (ctx.event.type === 'content_block_delta') return { ...ctx.event, delta: { ...ctx.event.delta, text: ctx.event.delta.text.toUpperCase() } };
       if (ctx.event.type === 'ping') ctx.drop();
     } };`,
  );
  return startProxy(t, upstreamUrl, { CACHE_FIX_EXTENSIONS_DIR: dir });
}

test('a rewriting extension sees whole characters and its edits are re-encoded correctly', async (t) => {
  const events = messageEvents({ text: UNICODE_TEXT });
  const upstream = await startFakeUpstream(replySse(splitInsideCharacters(events.join('')), {}, 3));
  t.after(() => upstream.close());
  const proxy = await startShoutingProxy(t, upstream.url);
  const res = await streamBytes(proxy.url, '{"model":"m","stream":true,"messages":[]}');
  const text = res.bytes.toString();
  assert.equal(text.includes('\ufffd'), false);
  const deltas = [...text.matchAll(/"text":"([^"]*)"\}/g)].map((m) => m[1]).join('');
  assert.equal(deltas, UNICODE_TEXT.toUpperCase());
  assert.equal(text.includes('"type":"ping"'), false);
  assert.equal(res.headers['content-length'], undefined);
});

test('rewrite mode: untouched events keep their bytes (CRLF, id lines, comments), an edit changes only the data line, a drop removes the whole event', async (t) => {
  const events = messageEvents({ text: UNICODE_TEXT }).map((e, i) => (i === 1 ? `: keep-alive\n\nid: 7\n${e}` : e).replaceAll('\n', '\r\n'));
  const stream = events.join('');
  // Byte-sized pieces: every event, line ending and character is cut somewhere.
  const pieces = [...Buffer.from(stream)].map((b) => Buffer.of(b));
  const upstream = await startFakeUpstream(replySse(pieces, {}, 0));
  t.after(() => upstream.close());
  const proxy = await startShoutingProxy(t, upstream.url);
  const res = await streamBytes(proxy.url, '{"model":"m","stream":true,"messages":[]}');
  const expected = events
    .filter((e) => !e.includes('"type":"ping"'))
    .map((e) => (e.includes('content_block_delta') ? e.replace(/"text":"([^"]*)"/, (_m, text: string) => `"text":"${text.toUpperCase()}"`) : e))
    .join('');
  assert.equal(res.bytes.toString(), expected);
});

test('backpressure: a client that stops reading stops the proxy reading from the upstream', async (t) => {
  const MB = 1024 * 1024;
  const chunk = Buffer.from(`event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${'x'.repeat(MB - 120)}"}}\n\n`);
  let acceptedMb = 0;
  let stalled = false;
  const upstream = await startFakeUpstream(async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (let i = 0; i < 96; i += 1) {
      acceptedMb += 1;
      if (!res.write(chunk)) {
        const drained = await Promise.race([
          new Promise<boolean>((resolve) => res.once('drain', () => resolve(true))),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1_000)),
        ]);
        if (!drained) {
          stalled = true;
          return;
        }
      }
    }
  });
  t.after(() => upstream.close());
  const proxy = await startProxy(t, upstream.url);
  const client = http.request(`${proxy.url}/v1/messages`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (res) => res.pause());
  client.on('error', () => {});
  client.end('{"model":"m","stream":true,"messages":[]}');
  t.after(() => client.destroy());
  const { waitFor } = await import('./helpers/wait-for.ts');
  await waitFor(() => stalled || acceptedMb >= 96, 'the upstream to stall or finish', 20_000);
  // Without backpressure the proxy would buffer all 96 MB; with it only socket buffers fill up.
  assert.equal(stalled, true, `upstream wrote ${acceptedMb} MB without stalling`);
  assert.ok(acceptedMb < 48, `${acceptedMb} MB accepted before the stall`);
});
