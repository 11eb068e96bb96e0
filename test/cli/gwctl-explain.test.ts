// gwctl explain <status>: the spec 7 rows, offline, in text and JSON.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { gwctl, gwctlJson, makeSandbox } from './gwctl-harness.ts';

const s = makeSandbox({ GWCTL_BASE_URL: 'https://gw.example.com' });
after(() => s.cleanup());

test('401 has three rows with the spec remedies; {base_url} is filled in', async () => {
  const run = await gwctlJson(['explain', '401'], s.env);
  assert.equal(run.code, 0);
  assert.deepEqual(run.json.rows.map((r: { where: string }) => r.where), ['/v1/models and other calls', 'Client through the local proxy', 'Direct fallback branch']);
  assert.equal(run.json.rows[1].remedy, 'Supply the credential; set CACHE_FIX_PROXY_UPSTREAM to https://gw.example.com');
  assert.ok(run.json.rows[1].causes.includes('PROXY_UPSTREAM_DEFAULT'));
  const text = await gwctl(['explain', '503'], s.env);
  assert.match(text.out, /502 \/ 503 {2}Via proxy or upstream/);
  assert.match(text.out, /503 {2}GET \/health on the local proxy/);
  assert.match(text.out, /gwctl diagnose --status 503/);
});

test('every listed status explains; others exit 1; bad input exits 2', async () => {
  for (const status of [401, 403, 404, 429, 502, 503]) assert.equal((await gwctl(['explain', String(status)], s.env)).code, 0, String(status));
  const unknown = await gwctl(['explain', '418'], s.env);
  assert.equal(unknown.code, 1);
  assert.match(unknown.err, /418 is not in the service's error table/);
  assert.equal((await gwctlJson(['explain', '418'], s.env)).json.rows.length, 0);
  assert.equal((await gwctl(['explain', 'teapot'], s.env)).code, 2);
  assert.equal((await gwctl(['explain', '99'], s.env)).code, 2);
  assert.equal((await gwctl(['explain'], s.env)).code, 2);
  const noBase = await gwctl(['explain', '404'], { ...s.env, GWCTL_BASE_URL: '' });
  assert.match(noBase.out, /Use \{base_url\}\/v1\/models/, 'works without any configuration');
});
