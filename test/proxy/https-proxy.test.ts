import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeUpstream, testCertPath } from './helpers/fake-upstream.ts';
import { startConnectProxy } from './helpers/connect-proxy.ts';
import { startProxy } from './helpers/proxy-under-test.ts';
import { bypassesProxy } from '../../proxy/src/forward/no-proxy.ts';

async function post(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-tunnel' }, body: '{"model":"m","messages":[]}' });
  return { status: res.status, body: await res.json() };
}

test('HTTPS_PROXY: requests go through a CONNECT tunnel, TLS verified with CACHE_FIX_PROXY_CA_FILE', async (t) => {
  const upstream = await startFakeUpstream(undefined, true);
  const corporate = await startConnectProxy();
  t.after(() => Promise.all([upstream.close(), corporate.close()]));
  const authed = corporate.url.replace('http://', 'http://user:p%40ss@');
  const proxy = await startProxy(t, upstream.url, { HTTPS_PROXY: authed, CACHE_FIX_PROXY_CA_FILE: testCertPath });
  const res = await post(proxy.url);
  assert.equal(res.status, 200);
  assert.equal(res.body.id, 'msg_fake_1');
  assert.deepEqual(corporate.tunnels, [`127.0.0.1:${upstream.port}`]);
  assert.equal(corporate.proxyAuthorization[0], `Basic ${Buffer.from('user:p@ss').toString('base64')}`);
  // The proxy credential is for the proxy only; the upstream sees the client's own auth.
  assert.equal(upstream.received[0].headers['proxy-authorization'], undefined);
  assert.equal(upstream.received[0].headers['x-api-key'], 'sk-tunnel');
  assert.ok(proxy.warnings.some((w) => w.includes('using proxy http://127.0.0.1')));
});

test('without the CA the tunnelled TLS handshake fails and the client gets a 502 saying why', async (t) => {
  const upstream = await startFakeUpstream(undefined, true);
  const corporate = await startConnectProxy();
  t.after(() => Promise.all([upstream.close(), corporate.close()]));
  const proxy = await startProxy(t, upstream.url, { HTTPS_PROXY: corporate.url });
  const res = await post(proxy.url);
  assert.equal(res.status, 502);
  assert.equal(res.body.error, 'upstream_error');
  assert.match(res.body.message, /self[- ]signed|certificate/i);
  assert.equal(upstream.received.length, 0);
});

test('NO_PROXY bypasses the proxy (and a direct https upstream honours the CA file too)', async (t) => {
  const upstream = await startFakeUpstream(undefined, true);
  const corporate = await startConnectProxy();
  t.after(() => Promise.all([upstream.close(), corporate.close()]));
  const proxy = await startProxy(t, upstream.url, { HTTPS_PROXY: corporate.url, NO_PROXY: 'example.com,127.0.0.1', CACHE_FIX_PROXY_CA_FILE: testCertPath });
  assert.equal((await post(proxy.url)).status, 200);
  assert.deepEqual(corporate.tunnels, []);
});

test('NO_PROXY matching follows curl: *, exact host, domain suffix, leading dot, port', () => {
  assert.equal(bypassesProxy('api.example.com', 443, '*'), true);
  assert.equal(bypassesProxy('api.example.com', 443, 'example.com'), true);
  assert.equal(bypassesProxy('example.com', 443, '.example.com'), false);
  assert.equal(bypassesProxy('api.example.com', 443, '.example.com'), true);
  assert.equal(bypassesProxy('notexample.com', 443, 'example.com'), false);
  assert.equal(bypassesProxy('api.example.com', 443, 'api.example.com:8443'), false);
  assert.equal(bypassesProxy('api.example.com', 8443, 'api.example.com:8443'), true);
  assert.equal(bypassesProxy('::1', 443, '::1'), true);
  assert.equal(bypassesProxy('api.example.com', 443, ''), false);
});
