import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeUpstream } from './helpers/fake-upstream.ts';
import { startProxy } from './helpers/proxy-under-test.ts';
import { tempDir } from './helpers/temp-dir.ts';
import type { BuiltinExtension } from '../../proxy/src/transforms/types.ts';
import { BUILTIN_EXTENSIONS } from '../../proxy/src/transforms/builtin-extensions.ts';

test('healthy: 200 {"status":"ok"} exactly', async (t) => {
  const upstream = await startFakeUpstream();
  t.after(() => upstream.close());
  const proxy = await startProxy(t, upstream.url);
  const res = await fetch(`${proxy.url}/health`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/json');
  assert.equal(await res.text(), '{"status":"ok"}');
});

test('a broken extension file makes /health 503 degraded, and traffic still flows through the rest', async (t) => {
  const upstream = await startFakeUpstream();
  t.after(() => upstream.close());
  const dir = tempDir(t);
  writeFileSync(join(dir, 'aa-throws.mjs'), 'throw new Error("boom at import");\nexport default { name: "aa" };');
  writeFileSync(join(dir, 'mm-helper.mjs'), 'export const helper = 1;');
  writeFileSync(join(dir, 'zz-broken.mjs'), 'export default { name: "zz", onRequest(ctx) {');
  const proxy = await startProxy(t, upstream.url, { CACHE_FIX_EXTENSIONS_DIR: dir });
  const res = await fetch(`${proxy.url}/health`);
  assert.equal(res.status, 503);
  const text = await res.text();
  const body = JSON.parse(text);
  assert.deepEqual(Object.keys(body), ['status', 'failed_extensions', 'hint']);
  assert.equal(body.status, 'degraded');
  assert.deepEqual(body.failed_extensions.map((f: { file: string }) => f.file), ['aa-throws.mjs', 'zz-broken.mjs']);
  assert.equal(body.failed_extensions[0].error, 'boom at import');
  assert.match(body.failed_extensions[1].error, /Unexpected end of input/);
  for (const failure of body.failed_extensions) {
    assert.deepEqual(Object.keys(failure), ['file', 'error', 'lastAttempt']);
    assert.ok(!Number.isNaN(Date.parse(failure.lastAttempt)));
  }
  assert.match(body.hint, /restart/);
  assert.ok(proxy.warnings.some((w) => w.startsWith('[CRITICAL] extension load failed: aa-throws.mjs: boom at import')));

  const forwarded = await fetch(`${proxy.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', tools: [{ name: 'b' }, { name: 'a' }], messages: [] }),
  });
  assert.equal(forwarded.status, 200);
  // The remaining chain still ran (tools got sorted).
  assert.deepEqual(JSON.parse(upstream.received[0].body.toString()).tools, [{ name: 'a' }, { name: 'b' }]);
});

test('a built-in that fails to start is reported the same way', async (t) => {
  const upstream = await startFakeUpstream();
  t.after(() => upstream.close());
  const broken: BuiltinExtension = { name: 'broken-builtin', order: 10, create: () => { throw new Error('cannot start'); } };
  const proxy = await startProxy(t, upstream.url, {}, { builtins: [broken, ...BUILTIN_EXTENSIONS] });
  const body = await (await fetch(`${proxy.url}/health`)).json();
  assert.deepEqual(body.failed_extensions.map((f: { file: string; error: string }) => [f.file, f.error]), [['builtin:broken-builtin', 'cannot start']]);
});
