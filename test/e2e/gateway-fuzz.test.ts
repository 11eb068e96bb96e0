// A seeded, bounded fuzz run against a real gateway process on loopback: malformed and hostile
// requests (mutated bodies, wrong types, deep nesting, bad encodings, odd headers, raw garbage) must
// never cause a 5xx, every answer must be in the route's error envelope (or a normal answer), no
// request may hang, and the process must be alive and healthy at the end.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { GatewayProcess, isolateClientEnvironment } from '../helpers/gateway-process.ts';

const SEED = 20261123;
const CASES = 400;
const RAW_CASES = 60;

function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Json = unknown;

const random = prng(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const ODD_VALUES: Json[] = [null, true, false, 0, -1, 1e308, -0.5, '', 'x'.repeat(5_000), '\u0000\ud800', [], {}, [[[]]], { a: { b: { c: null } } }, 'sk-not-a-key', '<script>alert(1)</script>', 'ü✓😀'];

function mutate(value: Json, depth = 0): Json {
  if (depth > 6 || random() < 0.15) return pick(ODD_VALUES);
  if (Array.isArray(value)) {
    const copy = value.map((item) => (random() < 0.3 ? mutate(item, depth + 1) : item));
    if (random() < 0.2) copy.push(pick(ODD_VALUES));
    if (random() < 0.1) copy.splice(0, 1);
    return copy;
  }
  if (value && typeof value === 'object') {
    const copy: Record<string, Json> = { ...(value as Record<string, Json>) };
    for (const key of Object.keys(copy)) {
      const roll = random();
      if (roll < 0.1) delete copy[key];
      else if (roll < 0.35) copy[key] = mutate(copy[key], depth + 1);
    }
    if (random() < 0.2) copy[`field_${Math.floor(random() * 1000)}`] = pick(ODD_VALUES);
    return copy;
  }
  return random() < 0.5 ? pick(ODD_VALUES) : value;
}

const SEEDS: Array<{ path: string; body: Json }> = [
  { path: '/v1/chat/completions', body: { model: 'demo-chat', messages: [{ role: 'user', content: 'hello' }], max_tokens: 8 } },
  { path: '/v1/chat/completions', body: { model: 'demo-chat', stream: true, messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: [{ type: 'text', text: 'hi' }] }] } },
  { path: '/v1/messages', body: { model: 'demo-chat', max_tokens: 8, messages: [{ role: 'user', content: 'hello' }], system: 'brief' } },
  { path: '/v1/messages', body: { model: 'demo-chat', max_tokens: 8, stream: true, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'more' }] } },
  { path: '/v1/messages/count_tokens', body: { model: 'demo-chat', messages: [{ role: 'user', content: 'count' }] } },
];

interface Case {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Blob;
}

function makeCase(key: string): Case {
  const seed = pick(SEEDS);
  const roll = random();
  const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  if (seed.path.includes('messages')) headers['anthropic-version'] = '2023-06-01';
  let body: string | Blob = JSON.stringify(mutate(seed.body));
  let path = seed.path;
  let method = 'POST';
  if (roll < 0.05) body = (body as string).slice(0, Math.floor((body as string).length * random()));
  else if (roll < 0.08) body = new Blob([new Uint8Array([0xff, 0xfe, 0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d])]);
  else if (roll < 0.11) body = `{"model":"demo-chat","messages":${'['.repeat(5_000)}${']'.repeat(5_000)}}`;
  else if (roll < 0.14) headers['content-type'] = pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1']);
  else if (roll < 0.17) delete headers.authorization;
  else if (roll < 0.2) headers.authorization = pick(['Bearer', 'Bearer  sk-x', `Basic ${key}`, `Bearer "${key}"`, `bearer ${key}x`]);
  else if (roll < 0.23) path = pick(['/v1/v1/chat/completions', '/v1/%6Dessages', '/v1/messages/%zz', '/v1//chat/completions', `/v1/${'a'.repeat(3000)}`, '/v1/chat/completions?x=%00', '/chat/completions']);
  else if (roll < 0.26) method = pick(['GET', 'PUT', 'DELETE', 'PATCH']);
  else if (roll < 0.28) headers['x-claude-code-session-id'] = pick(['ok-session', 'spaces are not ids', 'x'.repeat(500)]);
  else if (roll < 0.3) body = '';
  return { method, path, headers, body: method === 'GET' ? undefined : body };
}

/** True when the body is an error envelope of the surface the path names. */
function inShape(path: string, body: string): boolean {
  let parsed: any;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  const messages = /^(\/v1)*\/(%6D|m)essages/i.test(path);
  if (messages) return parsed?.type === 'error' && typeof parsed.error?.message === 'string' && typeof parsed.error?.type === 'string';
  return typeof parsed?.error?.message === 'string' && typeof parsed.error?.type === 'string' && parsed.type !== 'error';
}

describe(`fuzz: ${CASES} mutated requests and ${RAW_CASES} raw ones (seed ${SEED})`, { timeout: 600_000 }, () => {
  let gateway: GatewayProcess;
  let key: string;
  let restoreEnv: () => void;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    gateway = await GatewayProcess.start({ rateLimit: 0 });
    key = (await gateway.createKey('admin', 'fuzz')).key;
  });

  after(async () => {
    await gateway?.cleanup();
    restoreEnv?.();
  });

  test('no 5xx, every error in shape with a request id, no hang', async () => {
    const problems: string[] = [];
    for (let i = 0; i < CASES; i += 1) {
      const c = makeCase(key);
      const controller = new AbortController();
      // A bound per request so a hang fails the test instead of stalling the suite.
      const timer = setTimeout(() => controller.abort(), 60_000);
      try {
        const response = await fetch(`${gateway.textUrl}${c.path}`, { method: c.method, headers: c.headers, body: c.body, signal: controller.signal });
        const text = await response.text();
        const where = `#${i} ${c.method} ${c.path.slice(0, 60)} -> ${response.status}`;
        if (response.status >= 500) problems.push(`${where}: ${text.slice(0, 200)}`);
        else if (response.status >= 400 && !inShape(c.path, text)) problems.push(`${where} not in shape: ${text.slice(0, 200)}`);
        else if (response.status >= 400 && !response.headers.get('x-request-id')) problems.push(`${where} without x-request-id`);
      } catch (error) {
        problems.push(`#${i} ${c.method} ${c.path.slice(0, 60)}: ${(error as Error).name === 'AbortError' ? 'no answer within 60 s' : (error as Error).message}`);
      } finally {
        clearTimeout(timer);
      }
    }
    assert.deepEqual(problems, []);
  });

  test('raw garbage on the socket gets an answer in shape or a closed connection, never a hang', async () => {
    const port = Number(new URL(gateway.textUrl).port);
    const problems: string[] = [];
    for (let i = 0; i < RAW_CASES; i += 1) {
      const bytes = Buffer.from(Array.from({ length: 1 + Math.floor(random() * 300) }, () => Math.floor(random() * 256)));
      const prefix = random() < 0.5 ? Buffer.from(pick(['POST /v1/chat/completions HTTP/1.1\r\n', 'GET /v1/models HTTP/1.1\r\nHost: x\r\n', 'POST /v1/messages HTTP/1.1\r\nContent-Length: 5\r\n\r\n'])) : Buffer.alloc(0);
      const answer = await new Promise<string>((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        let data = '';
        const timer = setTimeout(() => {
          socket.destroy();
          resolve('HANG');
        }, 60_000);
        socket.on('data', (d) => (data += d.toString('latin1')));
        socket.on('close', () => {
          clearTimeout(timer);
          resolve(data);
        });
        socket.on('error', () => undefined);
        socket.end(Buffer.concat([prefix, bytes, Buffer.from('\r\n\r\n')]));
      });
      if (answer === 'HANG') problems.push(`raw #${i}: no answer and no close within 60 s`);
      else if (answer) {
        const status = Number(answer.split(' ')[1]);
        const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
        if (status >= 500) problems.push(`raw #${i}: ${status}`);
        else if (status >= 400 && !/^\{"(error|type)"/.test(body)) problems.push(`raw #${i}: ${status} body not in shape: ${JSON.stringify(answer.slice(0, 400))}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  test('the process is alive and healthy, and serves a normal request', async () => {
    assert.equal(gateway.exitInfo, undefined, gateway.stderr);
    const health = await fetch(`${gateway.textUrl}/health`);
    assert.equal(health.status, 200);
    const ok = await fetch(`${gateway.textUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: 'demo-chat', messages: [{ role: 'user', content: 'after the storm' }] }),
    });
    assert.equal(ok.status, 200);
    await ok.arrayBuffer();
  });
});
