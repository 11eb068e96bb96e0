import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { messageEvents, replySse, startFakeUpstream } from './helpers/fake-upstream.ts';
import { startProxy } from './helpers/proxy-under-test.ts';
import { waitFor } from './helpers/wait-for.ts';
import { SOURCE_BIN, startServerProcess } from './helpers/run-cli.ts';
import { tempDir } from './helpers/temp-dir.ts';

const SECRETS = ['sk-ant-api03-SECRETKEY', 'Bearer SECRET-BEARER', 'session=SECRETCOOKIE', 'Basic U0VDUkVU'];
const BODY_MARKER = 'PRIVATE-CONVERSATION-TEXT';

test('CACHE_FIX_DEBUG logs request metadata with auth and cookie values redacted and no bodies', async (t) => {
  const upstream = await startFakeUpstream(replySse(messageEvents({ text: 'PRIVATE-ANSWER-TEXT' }), { 'set-cookie': 'upstream=SECRETSETCOOKIE' }, 1));
  t.after(() => upstream.close());
  const proxy = await startProxy(t, upstream.url, { CACHE_FIX_DEBUG: '1' });
  const res = await fetch(`${proxy.url}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': SECRETS[0],
      authorization: SECRETS[1],
      cookie: SECRETS[2],
      'proxy-authorization': SECRETS[3],
    },
    body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: BODY_MARKER }] }),
  });
  await res.text();
  const logPath = join(proxy.home, '.claude', 'cache-fix-debug.log');
  const log = await waitFor(() => {
    try {
      const text = readFileSync(logPath, 'utf8');
      return text.includes(' stream_end ') ? text : false;
    } catch {
      return false;
    }
  }, 'debug log lines');
  assert.match(log, / request /);
  assert.match(log, / response /);
  assert.match(log, /"x-api-key":"\[REDACTED\]"/);
  assert.match(log, /"authorization":"\[REDACTED\]"/);
  assert.match(log, /"cookie":"\[REDACTED\]"/);
  assert.match(log, /"set-cookie":"\[REDACTED\]"/);
  for (const secret of [...SECRETS, 'SECRETSETCOOKIE', 'SECRETKEY', 'SECRETCOOKIE']) assert.equal(log.includes(secret), false, secret);
  assert.equal(log.includes(BODY_MARKER), false);
  assert.equal(log.includes('PRIVATE-ANSWER-TEXT'), false);
});

test('debug logging is off by default', async (t) => {
  const upstream = await startFakeUpstream();
  t.after(() => upstream.close());
  const proxy = await startProxy(t, upstream.url);
  await (await fetch(`${proxy.url}/v1/messages`, { method: 'POST', body: '{}' })).text();
  assert.throws(() => readFileSync(join(proxy.home, '.claude', 'cache-fix-debug.log')), /ENOENT/);
});

test('every credential-looking header and query parameter is redacted in the debug log', async (t) => {
  const upstream = await startFakeUpstream();
  t.after(() => upstream.close());
  const proxy = await startProxy(t, upstream.url, { CACHE_FIX_DEBUG: '1' });
  const secretHeaders: Record<string, string> = {
    'api-key': 'AZURE-SECRET-1',
    'x-goog-api-key': 'GOOG-SECRET-2',
    'x-auth-token': 'AUTH-SECRET-3',
    'anthropic-api-key': 'ANT-SECRET-4',
    'x-amz-security-token': 'AMZ-SECRET-5',
  };
  const res = await fetch(`${proxy.url}/v1/messages?beta=true&key=QUERY-SECRET-6&api_key=QUERY-SECRET-7&access_token=QUERY-SECRET-8&sig=QUERY-SECRET-9`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...secretHeaders },
    body: '{"model":"m","messages":[]}',
  });
  await res.text();
  const logPath = join(proxy.home, '.claude', 'cache-fix-debug.log');
  const log = await waitFor(() => {
    try {
      const text = readFileSync(logPath, 'utf8');
      return text.includes(' response ') ? text : false;
    } catch {
      return false;
    }
  }, 'debug log lines');
  for (const name of Object.keys(secretHeaders)) assert.match(log, new RegExp(`"${name}":"\\[REDACTED\\]"`));
  assert.match(log, /beta=true&key=\[REDACTED\]&api_key=\[REDACTED\]&access_token=\[REDACTED\]&sig=\[REDACTED\]/);
  assert.match(log, /"x-claude-code-session-id"|"content-type":"application\/json"/);
  for (const secret of [...Object.values(secretHeaders), 'QUERY-SECRET']) assert.equal(log.includes(secret), false, secret);
  // The upstream still gets every header and the query as sent.
  assert.equal(upstream.received[0]!.headers['x-goog-api-key'], 'GOOG-SECRET-2');
  assert.match(upstream.received[0]!.url, /key=QUERY-SECRET-6/);
});

test('the start line and the /v1 warning never print the password of an upstream URL', async (t) => {
  const home = tempDir(t, 'cfp-mask-');
  const proxy = await startServerProcess(process.execPath, ['--import', 'tsx', SOURCE_BIN, 'server'], {
    PATH: process.env.PATH ?? '',
    HOME: home,
    CACHE_FIX_PROXY_PORT: '0',
    CACHE_FIX_PROXY_UPSTREAM: 'http://alice:URL-PASSWORD-1@127.0.0.1:9/v1',
  });
  t.after(() => proxy.stop());
  assert.match(proxy.stdout(), /-> http:\/\/\*\*\*@127\.0\.0\.1:9\/v1/);
  assert.match(proxy.stderr(), /ends in \/v1 \(http:\/\/\*\*\*@127\.0\.0\.1:9\/v1\)/);
  for (const text of [proxy.stdout(), proxy.stderr()]) {
    assert.equal(text.includes('URL-PASSWORD-1'), false);
    assert.equal(text.includes('alice'), false);
  }
});
