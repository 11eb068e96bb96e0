import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { messageEvents, replySse, startFakeUpstream } from './helpers/fake-upstream.ts';
import { startProxy } from './helpers/proxy-under-test.ts';
import { waitFor } from './helpers/wait-for.ts';

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
