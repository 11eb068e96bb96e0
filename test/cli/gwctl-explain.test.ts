// gwctl explain <status>: the error-table rows, offline, in text and JSON; every status a client
// shows has real remedies that stand alone (no pointers to documents users do not have).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { gwctl, gwctlJson, makeSandbox } from './gwctl-harness.ts';

const s = makeSandbox({ GWCTL_BASE_URL: 'https://gw.example.com' });
after(() => s.cleanup());
const STATUSES = [400, 401, 403, 404, 413, 429, 500, 502, 503, 504, 529];

test('401 has three rows; a deleted key needs a new one; {base_url} and the variable are filled in', async () => {
  const run = await gwctlJson(['explain', '401'], s.env);
  assert.equal(run.code, 0);
  assert.deepEqual(run.json.rows.map((r: { where: string }) => r.where), ['/v1/models and other calls', 'Client through the local proxy', 'Direct fallback branch']);
  assert.match(run.json.rows[0].remedy, /A deleted key is gone for good: create a new one on https:\/\/gw\.example\.com\/keys/);
  assert.match(run.json.rows[0].commands[0], /^read -rs ANTHROPIC_AUTH_TOKEN && export ANTHROPIC_AUTH_TOKEN/);
  assert.match(run.json.rows[1].remedy, /set CACHE_FIX_PROXY_UPSTREAM to https:\/\/gw\.example\.com where the proxy runs/);
  assert.ok(run.json.rows[1].causes.includes('PROXY_UPSTREAM_DEFAULT'));
  const text = await gwctl(['explain', '503'], s.env);
  assert.match(text.out, /502 \/ 503 {2}Via proxy or upstream/);
  assert.match(text.out, /503 {2}GET \/health on the local proxy/);
  assert.match(text.out, /gwctl diagnose --status 503/);
});

test('400, 413, 429, 500, 504 and 529 have real remedies and their own cause codes', async () => {
  const causes = async (status: number) => (await gwctlJson(['explain', String(status)], s.env)).json.rows;
  const [bad] = await causes(400);
  assert.deepEqual(bad.causes, ['REQUEST_REJECTED', 'MODEL_NOT_AVAILABLE']);
  assert.match(bad.remedy, /gwctl diagnose` sends one short real request and shows the message and who answered/);
  const limited = (await causes(429))[0];
  assert.match(limited.remedy, /Retry-After[\s\S]*x-gateway-provider[\s\S]*ask the service operator/);
  assert.deepEqual(limited.causes, ['RATE_LIMITED', 'QUOTA_EXCEEDED'], 'a used-up budget is its own cause');
  assert.match(limited.remedy, /quota_exceeded[\s\S]*retrying sooner will not help/);
  assert.deepEqual((await causes(413))[0].causes, ['REQUEST_TOO_LARGE']);
  assert.deepEqual((await causes(529))[0].causes, ['UPSTREAM_OVERLOADED']);
  assert.match((await causes(500))[0].remedy, /request-id/);
  assert.match((await causes(504))[0].condition, /did not answer in time/);
  const model = (await causes(404)).find((r: { id: string }) => r.id === '404-model');
  assert.ok(model.commands.includes('gwctl config set client.model <model id>'));
});

test('every listed status explains without "not further described" or spec references; others exit 1; bad input exits 2', async () => {
  for (const status of STATUSES) {
    const run = await gwctl(['explain', String(status)], s.env);
    assert.equal(run.code, 0, String(status));
    assert.doesNotMatch(run.out, /not further described|\bspec\b|rule \d/i, String(status));
  }
  const unknown = await gwctl(['explain', '418'], s.env);
  assert.equal(unknown.code, 1);
  assert.match(unknown.err, /418 is not in the error table \(it covers 400, 401, 403, 404, 413, 429, 500, 502, 503, 504, 529\)/);
  assert.equal((await gwctlJson(['explain', '418'], s.env)).json.rows.length, 0);
  const teapot = await gwctl(['explain', 'teapot'], s.env);
  assert.equal(teapot.code, 2);
  assert.match(teapot.err, /<status> must be an HTTP status from 100 to 599 \(e\.g\. 401\) or a cause code \(e\.g\. QUOTA_EXCEEDED\), got "teapot"/);
  assert.doesNotMatch(teapot.err, /NaN/);
  assert.equal((await gwctl(['explain', '99'], s.env)).code, 2);
  assert.equal((await gwctl(['explain'], s.env)).code, 2);
  const noBase = await gwctl(['explain', '404'], { ...s.env, GWCTL_BASE_URL: '' });
  assert.match(noBase.out, /Use \{base_url\}\/v1\/models/, 'works without any configuration');
});

test('a cause code or a gateway error code: what happened, why, the user\'s and the operator\'s remedy, from the catalogue', async () => {
  const quota = await gwctlJson(['explain', 'quota_exceeded'], s.env);
  assert.equal(quota.code, 0);
  assert.equal(quota.json.cause.code, 'QUOTA_EXCEEDED');
  assert.match(quota.json.cause.userRemedy, /retrying sooner will not help/);
  assert.ok(quota.json.cause.operatorCommands.some((c: string) => c.startsWith('gwctl admin ')));
  const text = await gwctl(['explain', 'KEY_REJECTED'], s.env);
  assert.match(text.out, /^KEY_REJECTED: The service answered 401/);
  assert.match(text.out, /you {8}A deleted key is gone for good: create a new one on https:\/\/gw\.example\.com\/keys/);
  assert.match(text.out, /operator {3}Look the key up/);
  assert.equal((await gwctl(['explain', 'rate_limited'], s.env)).code, 0, 'any case');
});
