import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ExtensionRegistry } from '../../proxy/src/transforms/registry.ts';
import { BUILTIN_EXTENSIONS } from '../../proxy/src/transforms/builtin-extensions.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { waitFor } from './helpers/wait-for.ts';

function registry(dir: string, configPath: string, warnings: string[] = []) {
  return new ExtensionRegistry({
    builtins: BUILTIN_EXTENSIONS,
    extensionsDir: dir,
    configPath,
    services: { env: {}, homeDir: dir, warn: (l) => warnings.push(l), now: () => new Date() },
  });
}

test('the default chain of 4.2.1, in order, with bootstrap-defense only on the bootstrap route', async (t) => {
  const dir = tempDir(t);
  const reg = registry(join(dir, 'missing'), join(dir, 'missing.json'));
  await reg.load();
  assert.deepEqual(reg.forRoute('messages').map((e) => e.name), [
    'ttl-tier-detect', 'fingerprint-strip', 'sort-stabilization', 'identity-normalization', 'cache-control-normalize',
    'ttl-management', 'auto-1m-guard', 'thinking-block-sanitize', 'session-health', 'cache-telemetry',
  ]);
  assert.deepEqual(reg.forRoute('bootstrap').map((e) => e.name), ['bootstrap-defense']);
  assert.deepEqual(reg.health(), { status: 'ok' });
});

test('the packaged extensions.json lists exactly the built-in chain', async () => {
  const { readFileSync } = await import('node:fs');
  const shipped = JSON.parse(readFileSync(new URL('../../proxy/extensions.json', import.meta.url), 'utf8'));
  assert.deepEqual(Object.entries(shipped).map(([name, v]: [string, any]) => [name, v.order, v.enabled]), BUILTIN_EXTENSIONS.map((b) => [b.name, b.order, true]));
});

test('extensions.json is keyed by name: enabled and order override file defaults; ties keep file order', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'b-second.mjs'), 'export default { name: "second", order: 10 };');
  writeFileSync(join(dir, 'a-first.mjs'), 'export default { name: "first", order: 10 };');
  writeFileSync(join(dir, 'c-off.mjs'), 'export default { name: "off-by-default", enabled: false };');
  const config = join(dir, 'extensions.json');
  writeFileSync(config, JSON.stringify({ 'sort-stabilization': { enabled: false }, 'cache-telemetry': { order: 1 }, 'off-by-default': { enabled: true, order: 2000 } }));
  const reg = registry(dir, config);
  await reg.load();
  const names = reg.forRoute('messages').map((e) => e.name);
  assert.deepEqual(names.slice(0, 3), ['cache-telemetry', 'first', 'second']);
  assert.equal(names.includes('sort-stabilization'), false);
  assert.equal(names.at(-1), 'off-by-default');
});

test('invalid extensions.json means defaults, with a warning instead of silence', async (t) => {
  const dir = tempDir(t);
  const config = join(dir, 'extensions.json');
  writeFileSync(config, '{ not json');
  const warnings: string[] = [];
  const reg = registry(join(dir, 'none'), config, warnings);
  await reg.load();
  assert.equal(reg.forRoute('messages').length, 10);
  assert.match(warnings.join('\n'), /is not valid JSON/);
});

test('hot reload (opt-in) applies a changed extensions.json without a restart', async (t) => {
  const dir = tempDir(t);
  const config = join(dir, 'extensions.json');
  writeFileSync(config, '{}');
  const reg = registry(dir, config);
  await reg.load();
  reg.watch();
  t.after(() => reg.close());
  writeFileSync(config, JSON.stringify({ 'sort-stabilization': { enabled: false } }));
  await waitFor(() => !reg.forRoute('messages').some((e) => e.name === 'sort-stabilization'), 'reload after config change');
  writeFileSync(join(dir, 'late.mjs'), 'export default { name: "late" };');
  await waitFor(() => reg.forRoute('messages').some((e) => e.name === 'late'), 'reload after a new extension file');
});
