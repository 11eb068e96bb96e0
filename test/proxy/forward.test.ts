import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonMessage, startFakeUpstream } from './helpers/fake-upstream.ts';
import { startProxy } from './helpers/proxy-under-test.ts';
import { longSessionBody } from './helpers/long-session.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { delay } from './helpers/wait-for.ts';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A raw HTTP/1.1 request, so the test controls every header byte the proxy receives. */
function request(url: string, method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('headers reach the upstream as sent: auth byte for byte, hop-by-hop dropped, Host and length set', async (t) => {
  const upstream = await startFakeUpstream();
  t.after(() => upstream.close());
  const proxy = await startProxy(t, `${upstream.url}/relay/base/`);
  const body = JSON.stringify(longSessionBody());
  const res = await request(proxy.url, 'POST', '/v1/messages?beta=true', {
    'content-type': 'application/json',
    authorization: 'Bearer sk-test-Ab+/=  x',
    'x-api-key': 'sk-ant-api03-ZZ_yy-01==',
    'anthropic-version': '2023-06-01',
    'anthropic-beta': 'claude-code-20250219',
    'x-claude-code-session-id': 'sess-headers',
    connection: 'keep-alive, x-hop',
    'x-hop': 'must not pass',
    'keep-alive': 'timeout=5',
    'proxy-authorization': 'Basic c2VjcmV0',
    te: 'trailers',
    'accept-encoding': 'gzip, br',
  }, body);
  assert.equal(res.status, 200);
  assert.deepEqual(JSON.parse(res.body.toString()), jsonMessage);
  const [seen] = upstream.received;
  // Base path kept, client path and query forwarded as they were.
  assert.equal(seen.url, '/relay/base/v1/messages?beta=true');
  assert.equal(seen.headers.authorization, 'Bearer sk-test-Ab+/=  x');
  assert.equal(seen.headers['x-api-key'], 'sk-ant-api03-ZZ_yy-01==');
  assert.equal(seen.headers['anthropic-version'], '2023-06-01');
  assert.equal(seen.headers['x-claude-code-session-id'], 'sess-headers');
  assert.equal(seen.headers.host, `127.0.0.1:${upstream.port}`);
  assert.equal(seen.headers['accept-encoding'], 'identity');
  for (const dropped of ['x-hop', 'keep-alive', 'proxy-authorization', 'te']) assert.equal(seen.headers[dropped], undefined, dropped);
  assert.equal(Number(seen.headers['content-length']), seen.body.length);
  // The default chain rewrote the body (sorted tools, ttl) and re-serialised it compactly.
  const forwarded = JSON.parse(seen.body.toString());
  assert.notEqual(seen.body.toString(), body);
  const names = forwarded.tools.map((tool: { name: string }) => tool.name);
  assert.deepEqual(names, [...names].sort());
  assert.equal(forwarded.system[1].cache_control.ttl, '1h');
});

test('count_tokens goes through the chain; an untouched body is forwarded byte for byte', async (t) => {
  const upstream = await startFakeUpstream((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"input_tokens":42}');
  });
  t.after(() => upstream.close());
  const proxy = await startProxy(t, upstream.url);
  const pretty = '{\n  "model": "claude-opus-4-8",\n  "messages": [ {"role": "user", "content": "caf\\u00e9"} ]\n}';
  const res = await request(proxy.url, 'POST', '/v1/messages/count_tokens', { 'content-type': 'application/json' }, pretty);
  assert.equal(res.status, 200);
  assert.equal(res.body.toString(), '{"input_tokens":42}');
  assert.equal(upstream.received[0].url, '/v1/messages/count_tokens');
  assert.equal(upstream.received[0].body.toString(), pretty);
});

test('an unparseable body is forwarded unchanged and the chain does not crash', async (t) => {
  const upstream = await startFakeUpstream();
  t.after(() => upstream.close());
  const dir = tempDir(t);
  // A file extension that assumes an object body, as careless ones do.
  writeFileSync(join(dir, 'careless.mjs'), 'export default { name: "careless", onRequest(ctx) { ctx.body.model = "x"; } };');
  const proxy = await startProxy(t, upstream.url, { CACHE_FIX_EXTENSIONS_DIR: dir });
  for (const broken of ['{"model": "claude", "messages": [', 'not json at all \u00ff', '']) {
    const res = await request(proxy.url, 'POST', '/v1/messages', { 'content-type': 'application/json' }, broken);
    assert.equal(res.status, 200);
    assert.equal(upstream.received.at(-1)?.body.toString(), broken);
    assert.equal(upstream.received.at(-1)?.headers['content-length'], String(Buffer.byteLength(broken)));
  }
  assert.ok(proxy.warnings.some((w) => w.startsWith('[pipeline] careless.onRequest error:')));
});

test('unknown paths and methods answer 404 {"error":"not_found"} without reaching the upstream', async (t) => {
  const upstream = await startFakeUpstream();
  t.after(() => upstream.close());
  const proxy = await startProxy(t, upstream.url);
  for (const [method, path] of [['GET', '/v1/models'], ['GET', '/v1/messages'], ['POST', '/v1/messagesx'], ['POST', '/health'], ['POST', '/v1/chat/completions']]) {
    const res = await request(proxy.url, method, path, { 'content-type': 'application/json' }, method === 'POST' ? '{}' : undefined);
    assert.equal(res.status, 404, `${method} ${path}`);
    assert.equal(res.body.toString(), '{"error":"not_found"}');
    assert.equal(res.headers['content-type'], 'application/json');
  }
  assert.equal(upstream.received.length, 0);
});

test('upstream unreachable answers 502 upstream_error promptly', async (t) => {
  const gone = await startFakeUpstream();
  const deadUrl = gone.url;
  await gone.close();
  const proxy = await startProxy(t, deadUrl);
  const res = await request(proxy.url, 'POST', '/v1/messages', { 'content-type': 'application/json' }, '{"model":"m","messages":[]}');
  assert.equal(res.status, 502);
  const body = JSON.parse(res.body.toString());
  assert.equal(body.error, 'upstream_error');
  assert.match(body.message, /ECONNREFUSED/);
});

test('an upstream that stops answering gets 504 after CACHE_FIX_PROXY_TIMEOUT', async (t) => {
  const upstream = await startFakeUpstream(() => {
    // Never answers.
  });
  t.after(() => upstream.close());
  const proxy = await startProxy(t, upstream.url, { CACHE_FIX_PROXY_TIMEOUT: '300' });
  const res = await request(proxy.url, 'POST', '/v1/messages', { 'content-type': 'application/json' }, '{}');
  assert.equal(res.status, 504);
  const body = JSON.parse(res.body.toString());
  assert.equal(body.error, 'upstream_timeout');
  assert.match(body.message, /300 ms/);
});

test('a client that disconnects aborts the upstream request', async (t) => {
  let release: () => void = () => {};
  const upstream = await startFakeUpstream((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: ping\ndata: {"type":"ping"}\n\n');
    release = () => res.end();
  });
  t.after(() => {
    release();
    return upstream.close();
  });
  const proxy = await startProxy(t, upstream.url);
  await new Promise<void>((resolve, reject) => {
    const req = http.request(`${proxy.url}/v1/messages`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
      res.once('data', () => {
        req.destroy();
        resolve();
      });
    });
    req.on('error', () => {});
    req.on('close', resolve);
    req.end('{"model":"m","stream":true,"messages":[]}');
    setTimeout(() => reject(new Error('no first event within 5 s')), 5_000).unref();
  });
  const aborted = await Promise.race([upstream.received[0].closedEarly, delay(5_000).then(() => 'still open')]);
  assert.equal(aborted, true);
});

test('header edits by extensions reach the upstream (auto-1m strip really strips), auth cannot be edited', async (t) => {
  const upstream = await startFakeUpstream();
  t.after(() => upstream.close());
  const dir = tempDir(t);
  writeFileSync(join(dir, 'header-edit.mjs'), `export default { name: 'header-edit', onRequest(ctx) { ctx.headers['x-added'] = 'yes'; ctx.headers['x-api-key'] = 'stolen'; delete ctx.headers.authorization; } };`);
  const proxy = await startProxy(t, upstream.url, { CACHE_FIX_AUTO_1M_GUARD: 'strip', CACHE_FIX_EXTENSIONS_DIR: dir });
  await request(proxy.url, 'POST', '/v1/messages', {
    'content-type': 'application/json',
    'anthropic-beta': 'context-1m-2025-08-07,claude-code-20250219',
    'x-api-key': 'sk-real',
    authorization: 'Bearer real',
  }, JSON.stringify(longSessionBody()));
  const seen = upstream.received[0].headers;
  assert.equal(seen['anthropic-beta'], 'claude-code-20250219');
  assert.equal(seen['x-added'], 'yes');
  assert.equal(seen['x-api-key'], 'sk-real');
  assert.equal(seen.authorization, 'Bearer real');
});

test('Content-Length matches the bytes sent when an extension rewrites a non-streamed response', async (t) => {
  const upstream = await startFakeUpstream((_req, res) => {
    const pretty = JSON.stringify(jsonMessage, null, 2);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(pretty) });
    res.end(pretty);
  });
  t.after(() => upstream.close());
  const dir = tempDir(t);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'tag.mjs'), `export default { name: 'tag', onResponse(ctx) { ctx.body.proxied = 'ünïcode ✓'; } };`);
  const proxy = await startProxy(t, upstream.url, { CACHE_FIX_EXTENSIONS_DIR: dir });
  const res = await request(proxy.url, 'POST', '/v1/messages', { 'content-type': 'application/json' }, '{"model":"m","messages":[]}');
  assert.equal(res.status, 200);
  assert.equal(Number(res.headers['content-length']), res.body.length);
  assert.equal(JSON.parse(res.body.toString()).proxied, 'ünïcode ✓');
});

test('upstream HTTP errors pass through with their status and body', async (t) => {
  const upstream = await startFakeUpstream((_req, res) => {
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' });
    res.end('{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}');
  });
  t.after(() => upstream.close());
  const proxy = await startProxy(t, upstream.url);
  const res = await request(proxy.url, 'POST', '/v1/messages', { 'content-type': 'application/json' }, '{}');
  assert.equal(res.status, 429);
  assert.equal(res.headers['retry-after'], '7');
  assert.equal(JSON.parse(res.body.toString()).error.type, 'rate_limit_error');
});

test('the bootstrap route is proxied through bootstrap-defense only', async (t) => {
  const upstream = await startFakeUpstream((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"client_data":{"tengu_heron_brook":"remote prompt"}}');
  });
  t.after(() => upstream.close());
  const proxy = await startProxy(t, upstream.url);
  const res = await request(proxy.url, 'GET', '/api/claude_cli/bootstrap?x=1', { authorization: 'Bearer t' });
  assert.equal(res.status, 200);
  assert.equal(res.body.toString(), '{"client_data":{"tengu_heron_brook":"remote prompt"}}');
  assert.equal(upstream.received[0].url, '/api/claude_cli/bootstrap?x=1');
  assert.equal(upstream.received[0].headers['content-length'], '0');
});

test('every anthropic-* header reaches the upstream, and the headers clients act on come back', async (t) => {
  const upstream = await startFakeUpstream((_req, res) => {
    res.writeHead(429, {
      'content-type': 'application/json',
      'retry-after': '7',
      'x-should-retry': 'false',
      'request-id': 'req_upstream_0042',
      'anthropic-ratelimit-unified-status': 'rejected',
      'anthropic-ratelimit-tokens-remaining': '0',
    });
    res.end('{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}');
  });
  t.after(() => upstream.close());
  const proxy = await startProxy(t, upstream.url);
  const res = await request(proxy.url, 'POST', '/v1/messages?beta=true', {
    'content-type': 'application/json',
    authorization: 'Bearer sk-open-headers',
    'anthropic-version': '2023-06-01',
    'anthropic-beta': 'mid-conversation-system-2026-04-07',
    'anthropic-workspace-id': 'wrkspc_01',
    'anthropic-not-invented-yet': 'kept as sent',
    'x-claude-code-session-id': 'sess-open',
  }, JSON.stringify({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'hi' }, { role: 'system', content: 'mid' }] }));
  const [seen] = upstream.received;
  assert.equal(seen.headers['anthropic-workspace-id'], 'wrkspc_01');
  assert.equal(seen.headers['anthropic-not-invented-yet'], 'kept as sent');
  assert.equal(seen.headers['anthropic-beta'], 'mid-conversation-system-2026-04-07');
  assert.equal(res.status, 429);
  assert.equal(res.headers['retry-after'], '7');
  assert.equal(res.headers['x-should-retry'], 'false');
  assert.equal(res.headers['request-id'], 'req_upstream_0042');
  assert.equal(res.headers['anthropic-ratelimit-unified-status'], 'rejected');
  assert.equal(res.headers['anthropic-ratelimit-tokens-remaining'], '0');
  assert.match(res.body.toString(), /per-minute rate limit/);
});
