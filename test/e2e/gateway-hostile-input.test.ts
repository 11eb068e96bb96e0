// Hostile and broken input on a real listener: whatever the HTTP parser, the router or the body
// parser rejects is answered in the route's error envelope with a request id; bodies nested deeper
// than the limit are refused before anything walks them; a client that stalls its body is cut with
// 408; the gateway keeps serving throughout.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { defaultServeOptions } from '../../server/serve-options.ts';
import { startGateway, type RunningGateway } from '../../server/start.ts';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes bytes on a fresh connection and reads one answer until the server closes or it is complete. */
function raw(port: number, request: string | Buffer, options: { stallAfter?: boolean } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    const finish = () => {
      const text = data.toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
      let body = rest.join('\r\n\r\n');
      if (headers['transfer-encoding'] === 'chunked') body = body.replace(/^[0-9a-f]+\r\n/, '').replace(/\r\n0\r\n\r\n$/, '');
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    };
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      const text = data.toString('utf8');
      const length = /content-length: (\d+)/i.exec(text);
      const headEnd = text.indexOf('\r\n\r\n');
      if (length && headEnd >= 0 && Buffer.byteLength(text.slice(headEnd + 4)) >= Number(length[1])) {
        socket.destroy();
        finish();
      }
    });
    socket.on('close', () => finish());
    socket.on('error', (error) => (data.length ? finish() : reject(error)));
    socket.write(request);
    if (!options.stallAfter) socket.end();
  });
}

function post(path: string, headers: Record<string, string>, body: string): string {
  const lines = Object.entries({ host: 'gw.test', 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers }).map(([k, v]) => `${k}: ${v}`);
  return `POST ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

function assertOpenAi(answer: RawAnswer, status: number, code?: string): void {
  assert.equal(answer.status, status, answer.body);
  const body = JSON.parse(answer.body);
  assert.equal(typeof body.error?.message, 'string', answer.body);
  assert.notEqual(body.type, 'error');
  if (code) assert.equal(body.error.code, code);
  assert.match(answer.headers['x-request-id'] ?? '', /^req_/);
}

function assertMessages(answer: RawAnswer, status: number): void {
  assert.equal(answer.status, status, answer.body);
  const body = JSON.parse(answer.body);
  assert.equal(body.type, 'error', answer.body);
  assert.equal(typeof body.error?.message, 'string');
  assert.match(answer.headers['x-request-id'] ?? '', /^req_/);
}

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('hostile input on the API listeners', () => {
  let gateway: RunningGateway;
  let port: number;
  let key: string;
  let dataDir: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gwctl-hostile-'));
    gateway = await startGateway(
      { ...defaultServeOptions({}), host: '127.0.0.1', port: 0, imagePort: 0, dataDir, databaseUrl: `sqlite://${join(dataDir, 'gateway.db')}`, requestTimeoutMs: 1_500, rateLimitRpm: 0 },
      { GWCTL_ADMIN_PASSWORD: 'hostile-admin-pass' },
    );
    port = Number(new URL(gateway.textUrl).port);
    const admin = await gateway.deps.store.users.findByName('admin');
    key = (await gateway.deps.store.keys.create(admin!.id, 'hostile')).key;
  });

  after(async () => {
    await gateway?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('headers too large: 431 in the OpenAI envelope', async () => {
    assertOpenAi(await raw(port, `GET /v1/models HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(40_000)}\r\n\r\n`), 431, 'headers_too_large');
  });

  test('a request line that is not HTTP: 400 in shape', async () => {
    assertOpenAi(await raw(port, 'GARBAGE\r\n\r\n'), 400, 'malformed_request');
  });

  test('an HTTP/1.1 request without Host: 400 in shape (not an empty body from node)', async () => {
    assertOpenAi(await raw(port, 'GET /v1/models HTTP/1.1\r\n\r\n'), 400, 'missing_host');
  });

  test('a URL that does not decode: 400 in the shape of the route it names', async () => {
    assertOpenAi(await raw(port, `GET /v1/models/%zz HTTP/1.1\r\nhost: x\r\n\r\n`), 400, 'malformed_url');
    assertMessages(await raw(port, post('/v1/messages/%zz', { 'x-api-key': key }, '{}')), 400);
  });

  test('a percent-encoded messages path answers in the messages shape', async () => {
    assertMessages(await raw(port, post('/v1/%6Dessages', { 'x-api-key': 'sk-wrong' }, '{"model":"demo-chat","max_tokens":5,"messages":[]}')), 401);
  });

  test('an Expect header the server does not meet: 417 in shape', async () => {
    assertOpenAi(await raw(port, post('/v1/chat/completions', { expect: '100-banana', authorization: `Bearer ${key}` }, '{}')), 417, 'expectation_failed');
  });

  test('a very long unknown path: 404 whose message does not grow with the URL', async () => {
    const answer = await raw(port, `GET /v1/${'a'.repeat(9_000)} HTTP/1.1\r\nhost: x\r\n\r\n`);
    assertOpenAi(answer, 404);
    assert.ok(answer.body.length < 1_000, `${answer.body.length} bytes`);
  });

  test('JSON nested 100,000 levels: 400 naming the limit, in each route shape; nothing recursive ran', async () => {
    const chat = `{"model":"demo-chat","messages":[{"role":"user","content":"hi"}],"extra":${nested(100_000)}}`;
    const chatAnswer = await raw(port, post('/v1/chat/completions', { authorization: `Bearer ${key}` }, chat));
    assertOpenAi(chatAnswer, 400, 'json_too_deep');
    assert.match(JSON.parse(chatAnswer.body).error.message, /128 levels/);
    let toolResult = '"x"';
    for (let i = 0; i < 20_000; i += 1) toolResult = `[{"type":"tool_result","tool_use_id":"t","content":${toolResult}}]`;
    const messages = `{"model":"demo-chat","max_tokens":5,"messages":[{"role":"user","content":${toolResult}}]}`;
    assertMessages(await raw(port, post('/v1/messages', { 'x-api-key': key, 'anthropic-version': '2023-06-01' }, messages)), 400);
  });

  test('nesting within the limit is served', async () => {
    const body = `{"model":"demo-chat","messages":[{"role":"user","content":"deep but fine"}],"extra":${nested(100)}}`;
    const answer = await raw(port, post('/v1/chat/completions', { authorization: `Bearer ${key}` }, body));
    assert.equal(answer.status, 200, answer.body);
  });

  test('brackets inside strings do not count as nesting', async () => {
    const body = JSON.stringify({ model: 'demo-chat', messages: [{ role: 'user', content: `${'['.repeat(5_000)} "\\" {` }] });
    const answer = await raw(port, post('/v1/chat/completions', { authorization: `Bearer ${key}` }, body));
    assert.equal(answer.status, 200, answer.body);
  });

  test('a client that stalls its body is answered 408 in shape, and the gateway keeps serving', async () => {
    const head = `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"model":`;
    const answer = await raw(port, head, { stallAfter: true });
    assertOpenAi(answer, 408, 'request_timeout');
    const ok = await raw(port, post('/v1/chat/completions', { authorization: `Bearer ${key}` }, '{"model":"demo-chat","messages":[{"role":"user","content":"still here"}]}'));
    assert.equal(ok.status, 200, ok.body);
  });

  // Last: it leaves the gateway draining.
  test('while draining after a stop signal, new requests get 503 in shape with retry-after', async () => {
    gateway.deps.lifecycle!.draining = true;
    const messages = await raw(port, post('/v1/messages', { 'x-api-key': key }, '{"model":"demo-chat","max_tokens":5,"messages":[]}'));
    assertMessages(messages, 503);
    assert.equal(messages.headers['retry-after'], '1');
    assert.equal(messages.headers.connection, 'close');
    assertOpenAi(await raw(port, post('/v1/chat/completions', { authorization: `Bearer ${key}` }, '{}')), 503, 'shutting_down');
  });
});
