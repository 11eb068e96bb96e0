// The support desk on the built gateway: each failure a user meets is made for real on loopback
// (the official SDKs as clients, a fake upstream for the provider's faults, the admin CLI in other
// processes for keys, users and limits), the request id the client saw is taken from the SDK's
// error (or the stream's answer headers), and `gwctl admin request <id>` must name the right cause
// from that id alone; the operator API answers the same. `admin key find` and `admin user show`
// read the same log.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { FakeUpstream, jsonReply, sseReply } from '../helpers/fake-upstream.ts';
import { GatewayProcess, isolateClientEnvironment, type CreatedKey } from '../helpers/gateway-process.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { gwctl, makeSandbox, type Sandbox } from '../cli/gwctl-harness.ts';

interface Verdict {
  requestId: string;
  status: number;
  cause: string;
  remedy: string;
  userRemedy: string;
  facts: string[];
  operatorCommands: string[];
  request: { path: string | null; provider: string | null; upstreamStatus: number | null; upstreamRequestId: string | null; user: string | null; keyId: string | null };
}

const CHUNK = (text: string) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'slow-model', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`;

describe('support desk: from the request id a client saw to the cause', () => {
  let upstream: FakeUpstream;
  let gateway: GatewayProcess;
  let restoreEnv: () => void;
  let admin: CreatedKey;
  const seen = new Map<string, string>();
  /** What each scenario's user had: the key and the base address their client used. */
  const users = new Map<string, { key: string; baseUrl?: string }>();
  const sandboxes: Sandbox[] = [];

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    upstream = await FakeUpstream.start();
    upstream.handle((request) => {
      const model = request.json<{ model: string }>().model;
      if (model === 'flaky-model') return jsonReply(503, { error: { message: 'overloaded, try later', type: 'server_error' } }, { 'x-request-id': 'up-503-abc' });
      if (model === 'locked-model') return jsonReply(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
      return sseReply([CHUNK('first words')], { then: 'hang' });
    });
    gateway = await GatewayProcess.start({
      providers: `providers:
  - name: demo
    type: demo
  - name: flaky
    type: openai
    baseUrl: ${upstream.url}/v1
    models: [flaky-model]
  - name: locked
    type: openai
    baseUrl: ${upstream.url}/v1
    models: [locked-model]
  - name: slow
    type: openai
    baseUrl: ${upstream.url}/v1
    models: [slow-model]
`,
    });
    admin = await gateway.createKey('admin', 'everyday');
  });

  after(async () => {
    await gateway?.cleanup();
    await upstream?.close();
    for (const s of sandboxes) s.cleanup();
    restoreEnv?.();
  });

  const openai = (key: string) => new OpenAI({ baseURL: `${gateway.textUrl}/v1`, apiKey: key, maxRetries: 0 });
  const chat = (key: string, model = 'demo-chat') => openai(key).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
  /** The request id the SDK reports for a failed call (x-request-id for OpenAI, request-id for Anthropic). */
  async function failedRequestId(call: Promise<unknown>, status: number): Promise<string> {
    const error = await call.then(
      () => assert.fail('expected an error'),
      (e: unknown) => e as { status?: number; requestID?: string | null },
    );
    assert.equal(error.status, status);
    assert.match(String(error.requestID), /^req_/, 'the SDK shows the gateway\'s request id');
    return error.requestID!;
  }

  /** `gwctl admin request <id> --json`, once the request log has been written (about once a second). */
  async function explain(id: string): Promise<Verdict> {
    return waitFor(
      async () => {
        const result = await gateway.admin(['request', id, '--json']);
        return result.code === 0 ? (JSON.parse(result.stdout) as Verdict) : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
  }

  async function expectCause(name: string, id: string, cause: string, check?: (v: Verdict) => void, user?: { key: string; baseUrl?: string }): Promise<Verdict> {
    seen.set(name, id);
    if (user) users.set(name, user);
    const verdict = await explain(id);
    assert.equal(verdict.cause, cause, `${name}: ${JSON.stringify(verdict, null, 2)}`);
    assert.equal(verdict.requestId, id);
    assert.ok(verdict.remedy.length > 10 && verdict.userRemedy.length > 10, `${name}: both remedies`);
    check?.(verdict);
    return verdict;
  }

  test('a deleted key: KEY_DELETED, when and by whom', async () => {
    const key = await gateway.createKey('admin', 'old laptop');
    const deleted = await gateway.admin(['key', 'delete', key.id]);
    assert.equal(deleted.code, 0, deleted.stderr);
    const id = await failedRequestId(chat(key.key), 401);
    await expectCause('deleted key', id, 'KEY_DELETED', (v) => {
      assert.ok(v.facts.some((f) => f.includes(key.id) && /deleted at \d{4}-\d\d-\d\d .* by cli:/.test(f)), v.facts.join('\n'));
      assert.equal(v.request.keyId, key.id);
      assert.equal(v.request.user, 'admin');
    }, { key: key.key });
  });

  test('a key copied incompletely: KEY_UNKNOWN', async () => {
    const id = await failedRequestId(chat(admin.key.slice(0, -3)), 401);
    await expectCause('truncated key', id, 'KEY_UNKNOWN', (v) => assert.ok(v.facts.some((f) => /No key of this service ever had the value/.test(f)), v.facts.join('\n')), { key: admin.key.slice(0, -3) });
  });

  test('an expired key: KEY_EXPIRED', async () => {
    const key = await gateway.createKey('admin', 'short-lived');
    await gateway.adminJson(['key', 'update', key.id, '--expires', '2020-01-01T00:00:00Z']);
    const id = await failedRequestId(chat(key.key), 401);
    await expectCause('expired key', id, 'KEY_EXPIRED', (v) => assert.ok(v.operatorCommands.some((c) => c.includes(key.id)), 'the command names the key'), { key: key.key });
  });

  test('a disabled user: USER_DISABLED', async () => {
    await gateway.addUser('bob');
    const key = await gateway.createKey('bob', 'bob-key');
    await gateway.adminJson(['user', 'disable', 'bob']);
    const id = await failedRequestId(chat(key.key), 401);
    await expectCause('disabled user', id, 'USER_DISABLED', (v) => {
      assert.equal(v.request.user, 'bob');
      assert.ok(v.operatorCommands.some((c) => c === 'gwctl admin user enable bob'), v.operatorCommands.join('\n'));
    }, { key: key.key });
  });

  test('a used-up budget: QUOTA_EXCEEDED naming the budget; a per-key rate limit: RATE_LIMITED naming the limit', async () => {
    const budgeted = await gateway.adminJson<CreatedKey>(['key', 'create', '--user', 'admin', '--name', 'budgeted', '--budget-requests-day', '1']);
    assert.ok((await chat(budgeted.key)).choices[0]);
    const quota = await failedRequestId(chat(budgeted.key), 429);
    await expectCause('used-up budget', quota, 'QUOTA_EXCEEDED', (v) => assert.ok(v.facts.some((f) => /daily budget of 1 requests/.test(f)), v.facts.join('\n')), { key: budgeted.key });

    const limited = await gateway.adminJson<CreatedKey>(['key', 'create', '--user', 'admin', '--name', 'limited', '--rate-limit', '1']);
    assert.ok((await chat(limited.key)).choices[0]);
    const rate = await failedRequestId(chat(limited.key), 429);
    await expectCause('rate limit', rate, 'RATE_LIMITED', (v) => assert.ok(v.facts.some((f) => /limited to 1 requests per minute/.test(f)), v.facts.join('\n')), { key: limited.key });
  });

  test('a model outside the key\'s list: MODEL_NOT_ALLOWED; a model nobody serves: MODEL_UNKNOWN', async () => {
    const narrow = await gateway.adminJson<CreatedKey>(['key', 'create', '--user', 'admin', '--name', 'narrow', '--models', 'demo-embedding']);
    const id = await failedRequestId(chat(narrow.key), 403);
    await expectCause('model not allowed', id, 'MODEL_NOT_ALLOWED', undefined, { key: narrow.key });
    const unknown = await failedRequestId(chat(admin.key, 'gpt-nonexistent'), 404);
    await expectCause('unknown model', unknown, 'MODEL_UNKNOWN', undefined, { key: admin.key });
  });

  test('/v1/v1/messages (a messages client given the /v1 address): URL_DOUBLE_V1', async () => {
    const client = new Anthropic({ baseURL: `${gateway.textUrl}/v1`, apiKey: admin.key, maxRetries: 0 });
    const id = await failedRequestId(client.messages.create({ model: 'demo-chat', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }), 404);
    await expectCause('doubled /v1', id, 'URL_DOUBLE_V1', (v) => assert.equal(v.request.path, '/v1/v1/messages'), { key: admin.key, baseUrl: `${gateway.textUrl}/v1` });
  });

  test('an upstream 503: UPSTREAM_FAULT with the provider, its status and its request id; a provider refusing the gateway\'s key: UPSTREAM_AUTH', async () => {
    const id = await failedRequestId(chat(admin.key, 'flaky-model'), 503);
    await expectCause('upstream 503', id, 'UPSTREAM_FAULT', (v) => {
      assert.equal(v.request.provider, 'flaky');
      assert.equal(v.request.upstreamStatus, 503);
      assert.equal(v.request.upstreamRequestId, 'up-503-abc');
      assert.ok(v.facts.some((f) => f.includes('"flaky"') && f.includes('503') && f.includes('up-503-abc')), v.facts.join('\n'));
    }, { key: admin.key });
    const locked = await failedRequestId(chat(admin.key, 'locked-model'), 502);
    await expectCause('upstream refused the gateway\'s key', locked, 'UPSTREAM_AUTH', (v) => {
      assert.equal(v.request.provider, 'locked');
      assert.match(v.userRemedy, /Nothing is wrong with your key/);
    }, { key: admin.key });
  });

  test('a client gone mid-stream: CLIENT_ABORTED', async () => {
    const abort = new AbortController();
    const { data: stream, response } = await openai(admin.key)
      .chat.completions.create({ model: 'slow-model', stream: true, messages: [{ role: 'user', content: 'hi' }] }, { signal: abort.signal })
      .withResponse();
    const id = response.headers.get('x-request-id')!;
    for await (const chunk of stream) {
      assert.equal(chunk.choices[0]?.delta.content, 'first words');
      break;
    }
    abort.abort();
    await expectCause('client gone', id, 'CLIENT_ABORTED', undefined, { key: admin.key });
  });

  test('the operator API gives the same verdicts; an unknown id is a 404 that says what to check', async () => {
    const token = await gateway.adminJson<{ token: string }>(['token', 'create', '--name', 'support']);
    for (const [name, id] of seen) {
      const res = await fetch(`${gateway.textUrl}/admin/api/v1/requests/${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${token.token}` } });
      assert.equal(res.status, 200, name);
      const body = (await res.json()) as Verdict;
      assert.equal(body.cause, (await explain(id)).cause, name);
    }
    const missing = await fetch(`${gateway.textUrl}/admin/api/v1/requests/req_doesnotexist`, { headers: { authorization: `Bearer ${token.token}` } });
    assert.equal(missing.status, 404);
    assert.match(((await missing.json()) as { error: { message: string } }).error.message, /x-request-id/);
    const cli = await gateway.admin(['request', 'req_doesnotexist']);
    assert.equal(cli.code, 1);
    assert.match(cli.stderr, /No request with id "req_doesnotexist"/);
  });

  test('key find by masked hint and user show: state, deletion, failures by cause; nothing shows a key value', async () => {
    const keys = await gateway.adminJson<Array<{ id: string; hint: string; name: string }>>(['key', 'list']);
    const budgeted = keys.find((k) => k.name === 'budgeted')!;
    const found = await gateway.adminJson<{ keys: Array<{ keyId: string; state: string; recentFailures: Array<{ cause: string; count: number }> }> }>(['key', 'find', budgeted.hint.replace('…', '...')]);
    const entry = found.keys.find((k) => k.keyId === budgeted.id)!;
    assert.equal(entry.state, 'active');
    assert.deepEqual(entry.recentFailures.map((f) => [f.cause, f.count]), [['QUOTA_EXCEEDED', 1]]);
    const deletedId = (await explain(seen.get('deleted key')!)).request.keyId!;
    const gone = await gateway.adminJson<{ keys: Array<{ state: string; deletedBy: string | null; recentFailures: Array<{ cause: string }> }> }>(['key', 'find', deletedId]);
    assert.equal(gone.keys[0]!.state, 'deleted');
    assert.match(String(gone.keys[0]!.deletedBy), /^cli:/);
    assert.deepEqual(gone.keys[0]!.recentFailures.map((f) => f.cause), ['KEY_DELETED']);

    const bob = await gateway.admin(['user', 'show', 'bob']);
    assert.equal(bob.code, 0, bob.stderr);
    assert.match(bob.stdout, /User bob .* DISABLED/);
    assert.match(bob.stdout, /1 USER_DISABLED/);
    const text = await gateway.admin(['request', seen.get('upstream 503')!]);
    assert.match(text.stdout, /Cause: UPSTREAM_FAULT/);
    assert.match(text.stdout, /Tell the user: /);
    assert.ok(!`${text.stdout}${bob.stdout}${JSON.stringify(found)}${gateway.stdout}${gateway.stderr}`.includes(admin.key), 'no key value anywhere');
  });

  test('the same failures through the user\'s support bundle (gwctl diagnose --report FILE --request-id ID) and gwctl admin support FILE', async () => {
    assert.equal(users.size, 12, [...users.keys()].join(', '));
    for (const [name, user] of users) {
      const sandbox = makeSandbox({ GWCTL_BASE_URL: user.baseUrl ?? gateway.textUrl, ANTHROPIC_AUTH_TOKEN: user.key });
      sandboxes.push(sandbox);
      const file = join(sandbox.home, 'gwctl-support.json');
      const run = await gwctl(['diagnose', '--report', file, '--request-id', seen.get(name)!], sandbox.env);
      assert.ok(run.code === 0 || run.code === 1, `${name}: diagnose ran (${run.code}): ${run.err}`);
      const bundleText = readFileSync(file, 'utf8');
      assert.ok(!bundleText.includes(user.key), `${name}: the key is not in the bundle`);
      if (user.key !== admin.key) assert.ok(!bundleText.includes(admin.key));
      const expected = (await explain(seen.get(name)!)).cause;
      const verdict = await waitFor(
        async () => {
          const result = await gateway.admin(['support', file, '--json']);
          assert.equal(result.code, 0, result.stderr);
          const parsed = JSON.parse(result.stdout) as { verdict: { cause: string; source: string }; requests: Array<{ requestId: string }> };
          // The diagnosis's own requests reach the log within a flush or two.
          return parsed.requests.length > 1 ? parsed : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 250 },
      );
      assert.equal(verdict.verdict.cause, expected, `${name}: ${JSON.stringify(verdict.verdict)}`);
      assert.equal(verdict.verdict.source, 'service', name);
    }
  });
});
