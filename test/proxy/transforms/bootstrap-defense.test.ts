import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bootstrapDefense } from '../../../proxy/src/transforms/bootstrap-defense.ts';
import { newMeta } from '../helpers/run-builtin.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const SECRET_PROMPT = 'You are a remotely configured prompt, do not log me';

function make(home: string, env: Record<string, string> = {}) {
  return bootstrapDefense.create({ env, homeDir: home, warn: () => {}, now: () => new Date('2026-11-21T00:00:00Z') });
}

function logLines(home: string): any[] {
  return readFileSync(join(home, '.claude', 'cache-fix-bootstrap-log.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
}

async function respond(ext: ReturnType<typeof make>, body: any, status = 200) {
  let changed = false;
  const ctx = { status, headers: {}, body, meta: newMeta({ route: 'bootstrap' }), markChanged: () => { changed = true; } };
  await ext.onResponse?.(ctx);
  return { body: ctx.body, changed };
}

test('audit (default) forwards untouched and logs a hash of the prompt value, never the value', async (t) => {
  const home = tempDir(t);
  const ext = make(home);
  assert.deepEqual(ext.routes, ['bootstrap']);
  const reply = await ext.onRequest?.({ body: null, headers: {}, meta: newMeta({ route: 'bootstrap' }), markChanged: () => {} });
  assert.equal(reply, undefined);
  const body = { client_data: { tengu_heron_brook: SECRET_PROMPT, other: 1 } };
  const result = await respond(ext, body);
  assert.equal(result.changed, false);
  assert.equal(body.client_data.tengu_heron_brook, SECRET_PROMPT);
  const [line] = logLines(home);
  assert.equal(line.phase, 'response_audited');
  assert.equal(line.mode, 'audit');
  assert.equal(line.schema_version, 2);
  assert.match(line.prompt_value_hash, /^[0-9a-f]{16}$/);
  assert.equal(readFileSync(join(home, '.claude', 'cache-fix-bootstrap-log.jsonl'), 'utf8').includes(SECRET_PROMPT), false);
});

test('block answers locally with 200 {} and logs request_blocked', async (t) => {
  const home = tempDir(t);
  const reply = await make(home, { CACHE_FIX_BOOTSTRAP_MODE: 'block' }).onRequest?.({ body: null, headers: {}, meta: newMeta({ route: 'bootstrap' }), markChanged: () => {} });
  assert.deepEqual(reply, { skip: true, status: 200, body: {} });
  assert.equal(logLines(home)[0].phase, 'request_blocked');
});

test('allowlist removes surfaces not allowed; an empty allow list denies all', async (t) => {
  const home = tempDir(t);
  const feature = 'gb_prompt_feature';
  const ext = make(home, { CACHE_FIX_BOOTSTRAP_MODE: 'allowlist', CLAUDE_CODE_SYSTEM_PROMPT_GB_FEATURE: feature });
  const body: any = { tengu_heron_brook: 'a', features: { [feature]: 'b' } };
  const result = await respond(ext, body);
  assert.equal(result.changed, true);
  assert.equal(body.tengu_heron_brook, 'a');
  assert.equal(body.features[feature], undefined);
  const denyAll = make(home, { CACHE_FIX_BOOTSTRAP_MODE: 'allowlist', CACHE_FIX_BOOTSTRAP_ALLOWED_KEYS: '' });
  const second: any = { tengu_heron_brook: 'a' };
  await respond(denyAll, second);
  assert.equal(second.tengu_heron_brook, undefined);
  assert.deepEqual(logLines(home).at(-1).stripped_keys, ['tengu_heron_brook']);
});

test('upstream errors are audited too', async (t) => {
  const home = tempDir(t);
  await respond(make(home), null, 503);
  assert.equal(logLines(home)[0].phase, 'upstream_error_audited');
  assert.equal(logLines(home)[0].status, 503);
});
