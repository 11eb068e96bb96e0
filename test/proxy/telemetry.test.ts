import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { messageEvents, replySse, startFakeUpstream } from './helpers/fake-upstream.ts';
import { startProxy } from './helpers/proxy-under-test.ts';
import { longSessionBody } from './helpers/long-session.ts';
import { waitFor } from './helpers/wait-for.ts';

/** Files are written off the request path, so they are awaited (bounded) rather than read at once. */
function readJsonWhen(path: string, ready: (value: any) => boolean = () => true): Promise<any> {
  return waitFor(() => {
    try {
      const value = JSON.parse(readFileSync(path, 'utf8'));
      return ready(value) ? value : false;
    } catch {
      return false;
    }
  }, path);
}

const RATE_HEADERS = {
  'anthropic-ratelimit-unified-5h-utilization': '0.31',
  'anthropic-ratelimit-unified-5h-reset': '1795000000',
  'anthropic-ratelimit-unified-7d-utilization': '0.07',
  'anthropic-ratelimit-unified-7d-reset': '1795500000',
  'anthropic-ratelimit-unified-status': 'allowed',
  'request-id': 'req_telemetry',
};

async function streamSession(url: string, sessionId: string, extraHeaders: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${url}/v1/messages?beta=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-claude-code-session-id': sessionId, 'x-api-key': 'sk-test', ...extraHeaders },
    body: JSON.stringify(longSessionBody({ sessionId })),
  });
  assert.equal(res.status, 200);
  return res.text();
}

test('a streamed session writes account.json and sessions/<id>.json under the HOME the proxy sees', async (t) => {
  const usage = { input_tokens: 100, cache_read_input_tokens: 8_000, cache_creation_input_tokens: 1_900, output_tokens: 1 };
  const upstream = await startFakeUpstream(replySse(messageEvents({ usage, model: 'claude-opus-4-8' }), RATE_HEADERS, 1));
  t.after(() => upstream.close());
  const proxy = await startProxy(t, upstream.url);
  // The legacy shared file is retired on the first write.
  mkdirSync(join(proxy.home, '.claude'), { recursive: true });
  writeFileSync(join(proxy.home, '.claude', 'quota-status.json'), '{}');
  await streamSession(proxy.url, 'sess-tele-1', { 'anthropic-beta': 'context-1m-2025-08-07' });

  const dir = join(proxy.home, '.claude', 'quota-status');
  const account = await readJsonWhen(join(dir, 'account.json'));
  assert.deepEqual(Object.keys(account), ['five_hour', 'seven_day', 'status', 'overage_status', 'peak_hour', 'all_headers', 'timestamp']);
  assert.equal(account.five_hour.pct, 31);
  assert.equal(account.seven_day.utilization, 0.07);
  assert.equal(account.status, 'allowed');
  assert.equal(account.all_headers['request-id'], 'req_telemetry');

  const session = await readJsonWhen(join(dir, 'sessions', 'sess-tele-1.json'));
  assert.deepEqual(Object.keys(session.cache), ['ttl_tier', 'cache_creation', 'cache_read', 'ephemeral_1h', 'ephemeral_5m', 'hit_rate', 'timestamp']);
  assert.equal(session.cache.cache_read, 8_000);
  assert.equal(session.cache.cache_creation, 1_900);
  assert.equal(session.cache.hit_rate, '80.0');
  assert.equal(session.context_tokens, 10_000);
  assert.equal(session.request_count, 1);
  assert.ok(session.thinking_block_count > 0);
  assert.equal(session.thinking_desync_risk, 'ok');
  assert.equal(typeof session.thinking_blocks_dropped, 'number');
  assert.equal(session.auto_1m_detected, true);
  assert.equal(session.auto_1m_action, 'warn');
  assert.equal(session.session_id, 'sess-tele-1');
  const keys = Object.keys(session);
  assert.equal(keys[0], 'cache');
  assert.deepEqual(keys.slice(-2), ['timestamp', 'session_id']);
  // Spec 9: numbers only, never a claimed saving.
  assert.equal(/sav(ed|ing)|cost|\$/i.test(JSON.stringify(session) + JSON.stringify(account)), false);
  await waitFor(() => !existsSync(join(proxy.home, '.claude', 'quota-status.json')), 'legacy file removal');
  // Atomic writes leave no temp files behind.
  assert.deepEqual(readdirSync(join(dir, 'sessions')), ['sess-tele-1.json']);

  await streamSession(proxy.url, 'sess-tele-1');
  const updated = await readJsonWhen(join(dir, 'sessions', 'sess-tele-1.json'), (v) => v.request_count === 2);
  assert.equal(updated.request_count, 2);
  assert.equal(updated.first_seen, session.first_seen);
});

test('without rate-limit headers only the session file is written; a served-model swap is recorded', async (t) => {
  const upstream = await startFakeUpstream(replySse(messageEvents({ model: 'claude-sonnet-4-6' }), {}, 1));
  t.after(() => upstream.close());
  const proxy = await startProxy(t, upstream.url);
  await streamSession(proxy.url, 'sess-tele-2');
  const dir = join(proxy.home, '.claude', 'quota-status');
  const session = await readJsonWhen(join(dir, 'sessions', 'sess-tele-2.json'));
  assert.equal(existsSync(join(dir, 'account.json')), false);
  assert.equal(session.requested_model, 'claude-opus-4-8');
  assert.equal(session.served_model, 'claude-sonnet-4-6');
  assert.equal(session.model_divergence_sticky, true);
});

test('with OAuth refresh off (default) the credential file is never read or written', async (t) => {
  const upstream = await startFakeUpstream(replySse(messageEvents(), RATE_HEADERS, 1));
  t.after(() => upstream.close());
  const proxy = await startProxy(t, upstream.url);
  const credentials = join(proxy.home, '.claude', '.credentials.json');
  mkdirSync(join(proxy.home, '.claude'), { recursive: true });
  const original = JSON.stringify({ claudeAiOauth: { accessToken: 'at', refreshToken: 'rt', expiresAt: Date.now() + 60_000, scopes: ['user:inference'] } });
  writeFileSync(credentials, original, { mode: 0o600 });
  const past = new Date('2026-01-01T00:00:00Z');
  const { utimesSync } = await import('node:fs');
  utimesSync(credentials, past, past);
  await streamSession(proxy.url, 'sess-tele-3', { authorization: 'Bearer at' });
  // Everything the request caused has been written once the session file is there.
  await readJsonWhen(join(proxy.home, '.claude', 'quota-status', 'sessions', 'sess-tele-3.json'));
  // atime first (reading it here would move it); with relatime any read by the proxy would too.
  assert.equal(statSync(credentials).atimeMs, past.getTime());
  assert.equal(statSync(credentials).mtimeMs, past.getTime());
  assert.equal(readFileSync(credentials, 'utf8'), original);
  assert.equal(existsSync(join(proxy.home, '.claude', '.oauth_refresh.lock')), false);
});
