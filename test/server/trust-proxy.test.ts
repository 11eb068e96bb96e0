// `--trust-proxy`: behind a reverse proxy every request comes from the proxy's address. With the
// proxy trusted, login throttling and audit entries key on the client that X-Forwarded-For names;
// from an untrusted hop the header is ignored, so nobody escapes a lock by writing it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runCli } from '../../cli/run-cli.ts';
import { parseTrustProxy } from '../../server/config/trust-proxy.ts';
import type { GatewaySettings } from '../../server/gateway-deps.ts';
import { createTestGateway, type TestGateway } from '../helpers/test-app.ts';

const PROXY = '10.0.0.1';

async function attempt(gw: TestGateway, password: string, remoteAddress: string, forwardedFor?: string) {
  const headers = forwardedFor ? { 'x-forwarded-for': forwardedFor } : {};
  const page = await gw.text.inject({ url: '/login', remoteAddress, headers });
  const token = /name="_csrf" value="([^"]+)"/.exec(page.payload)![1]!;
  const cookie = String(page.headers['set-cookie']).split(';')[0]!;
  return gw.text.inject({
    method: 'POST',
    url: '/login',
    remoteAddress,
    headers: { ...headers, cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: token, username: 'target', password, next: '/keys' }).toString(),
  });
}

async function withGateway(settings: Partial<GatewaySettings>, run: (gw: TestGateway) => Promise<void>) {
  const gw = await createTestGateway({ settings });
  try {
    await gw.store.users.create('target', 'target-password');
    await run(gw);
  } finally {
    await gw.close();
  }
}

/** Ten wrong passwords from one client through the proxy, then the real person from another client. */
async function guessThenLogIn(gw: TestGateway, remote: string, guesser: (i: number) => string, person: string) {
  for (let i = 0; i < 10; i += 1) assert.equal((await attempt(gw, `wrong-${i}`, remote, guesser(i))).statusCode, 401);
  return attempt(gw, 'target-password', remote, person);
}

describe('trusted reverse proxies', () => {
  test('off (the default): X-Forwarded-For is ignored and everyone behind the proxy shares its address', async () => {
    await withGateway({}, async (gw) => {
      const person = await guessThenLogIn(gw, PROXY, () => '203.0.113.9', '198.51.100.20');
      assert.equal(person.statusCode, 429);
    });
  });

  test('with the proxy trusted, the lock keys on the real client: the guesser is locked, the person gets in, audit names the client', async () => {
    await withGateway({ trustProxy: [PROXY] }, async (gw) => {
      const person = await guessThenLogIn(gw, PROXY, () => '203.0.113.9', '198.51.100.20');
      assert.equal(person.statusCode, 303);
      assert.equal((await attempt(gw, 'target-password', PROXY, '203.0.113.9')).statusCode, 429, 'the guessing client stays locked');
      const session = [person.headers['set-cookie']].flat().map(String).find((c) => c.startsWith('gw_session='))!.split(';')[0]!;
      const keysPage = await gw.text.inject({ url: '/keys', remoteAddress: PROXY, headers: { cookie: session, 'x-forwarded-for': '198.51.100.20' } });
      const csrf = /name="csrf-token" content="([^"]+)"/.exec(keysPage.payload)![1]!;
      const created = await gw.text.inject({
        method: 'POST',
        url: '/web/api/keys',
        remoteAddress: PROXY,
        headers: { cookie: session, 'x-csrf-token': csrf, 'x-forwarded-for': '198.51.100.20', 'content-type': 'application/json' },
        payload: { name: 'via-proxy' },
      });
      assert.equal(created.statusCode, 201);
      const [entry] = await gw.store.audit.list({ action: 'key.create' });
      assert.equal(entry!.address, '198.51.100.20');
    });
  });

  test('from an untrusted hop the header is ignored: rotating forged addresses do not escape the lock', async () => {
    await withGateway({ trustProxy: [PROXY] }, async (gw) => {
      const person = await guessThenLogIn(gw, '192.0.2.50', (i) => `203.0.113.${i + 1}`, '198.51.100.20');
      assert.equal(person.statusCode, 429);
    });
  });

  test('a hop count believes that many proxies: the entry the nearest proxy added, not what the client wrote before it', async () => {
    await withGateway({ trustProxy: 1 }, async (gw) => {
      const person = await guessThenLogIn(gw, PROXY, (i) => `198.51.100.20, 203.0.113.${i + 1}`, '198.51.100.99, 198.51.100.20');
      assert.equal(person.statusCode, 303, 'each guess came from another client, so nobody is locked by address');
      const forged = await guessThenLogIn(gw, PROXY, (i) => `203.0.113.${i + 1}, 192.0.2.7`, '203.0.113.200, 192.0.2.7');
      assert.equal(forged.statusCode, 429, 'forging entries before the proxy’s own does not change the client');
    });
  });

  test('--trust-proxy values: hop counts, addresses, ranges and names; anything else is a usage error', async () => {
    assert.equal(parseTrustProxy(undefined), undefined);
    assert.equal(parseTrustProxy('off'), undefined);
    assert.equal(parseTrustProxy('2'), 2);
    assert.deepEqual(parseTrustProxy('10.0.0.1, 192.168.0.0/16,loopback,::1'), ['10.0.0.1', '192.168.0.0/16', 'loopback', '::1']);
    for (const bad of ['0', 'yes', '10.0.0.1/33', 'proxy.example']) assert.equal(typeof parseTrustProxy(bad), 'string', bad);
    let err = '';
    const code = await runCli(['serve', '--trust-proxy', 'proxy.example'], { stdout: () => undefined, stderr: (t) => void (err += t), env: { HOME: '/nonexistent' }, readStdin: async () => '' });
    assert.equal(code, 2);
    assert.match(err, /--trust-proxy takes a hop count or addresses/);
  });
});

test('--hsts-max-age needs an https --public-url', async () => {
  let err = '';
  const code = await runCli(['serve', '--hsts-max-age', '31536000', '--public-url', 'http://gw.example'], { stdout: () => undefined, stderr: (t) => void (err += t), env: { HOME: '/nonexistent' }, readStdin: async () => '' });
  assert.equal(code, 2);
  assert.match(err, /--hsts-max-age needs --public-url with https/);
});
