// The keys page says how to use a key: the text and image base URLs, the /v1 rule per kind of client
// and copyable examples, the same as `gwctl config client` prints for this gateway's addresses; the
// new-key answer (no script) fills the new key into the examples.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestGateway, type TestGateway } from '../../helpers/test-app.ts';
import { webLogin, type WebLogin } from '../../helpers/web-login.ts';
import { gwctl, makeSandbox } from '../../cli/gwctl-harness.ts';

const decode = (text: string) => text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

describe('Connect a client on the keys page', () => {
  let gateway: TestGateway;
  let login: WebLogin;
  before(async () => {
    gateway = await createTestGateway();
    await gateway.store.users.create('rae', 'password-123');
    login = await webLogin(gateway.text, 'rae');
  });
  after(() => gateway?.close());

  test('base URLs and rules are those of gwctl config client for the same addresses', async () => {
    const page = decode((await gateway.text.inject({ url: '/keys', headers: { cookie: login.cookie } })).payload);
    assert.match(page, /<h2 id="connect-title">Connect a client<\/h2>/);
    const sandbox = makeSandbox();
    try {
      const run = await gwctl(['config', 'client', '--json', '--base-url', 'http://gw.test', '--image-base-url', 'http://img.gw.test'], sandbox.env);
      assert.equal(run.code, 0, run.err);
      const clients = JSON.parse(run.out).clients as Array<{ title: string; baseUrl: string; baseUrlNote: string }>;
      assert.equal(clients.length, 4);
      for (const client of clients) {
        assert.ok(page.includes(`<strong>${client.title}</strong>: <code>${client.baseUrl}</code> <span class="muted">(${client.baseUrlNote})</span>`), `${client.title} as in gwctl config client`);
      }
    } finally {
      sandbox.cleanup();
    }
    assert.ok(page.includes('curl http://gw.test/v1/chat/completions'), 'curl example');
    assert.ok(page.includes('OpenAI(base_url="http://gw.test/v1", api_key="<API_KEY>")'), 'openai SDK example');
    assert.match(page, /export \w+_BASE_URL="http:\/\/gw\.test"\n/, 'messages client without /v1');
    assert.ok(page.includes('base_url = "http://gw.test/v1"'), 'Codex config');
    assert.ok(page.includes('curl http://img.gw.test/v1/images/generations'), 'images on the image address');
    assert.ok(page.includes('gwctl config set baseUrl http://gw.test'), 'gwctl config client');
    assert.match(page, /data-copy="#connect-curl"/);
    assert.match(page, /"model": "demo-chat"/, 'a model this gateway serves');
  });

  test('the new-key answer without script fills the key into the examples', async () => {
    const res = await gateway.text.inject({
      method: 'POST',
      url: '/keys',
      headers: { cookie: login.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: login.csrf, name: 'laptop' }).toString(),
    });
    assert.equal(res.statusCode, 201);
    const key = /id="new-key-value">(sk-[0-9A-Za-z]+)</.exec(res.payload)![1]!;
    assert.ok(decode(res.payload).includes(`-H "Authorization: Bearer ${key}"`), 'the curl example carries the new key');
    assert.equal(res.headers['cache-control'], 'no-store');
  });
});
