import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ttlTierDetect } from '../../../proxy/src/transforms/ttl-tier-detect.ts';
import { ttlManagement } from '../../../proxy/src/transforms/ttl-management.ts';
import { cacheableBlocks } from '../../../proxy/src/transforms/shared/message-content.ts';
import { longSessionBody } from '../helpers/long-session.ts';
import { newMeta, runBuiltin } from '../helpers/run-builtin.ts';

function markers(body: any): Array<Record<string, unknown>> {
  return [...cacheableBlocks(body)].map((b) => b.cache_control as Record<string, unknown>).filter(Boolean);
}

async function runBoth(body: any, env: Record<string, string> = {}) {
  const meta = newMeta();
  await runBuiltin(ttlTierDetect, body, { meta, env });
  return runBuiltin(ttlManagement, body, { meta, env });
}

test('every ephemeral marker of a long session gets the 1h ttl by default', async () => {
  const body = longSessionBody();
  const before = markers(body).length;
  const run = await runBoth(body);
  assert.equal(run.changed, true);
  assert.equal(run.meta.ttlTier, '1h');
  assert.ok(before >= 4);
  assert.deepEqual(markers(body).map((m) => m.ttl), Array(before).fill('1h'));
});

test('a 5m marker already present pins all added ttls to 5m (1h may not follow 5m)', async () => {
  const body = longSessionBody();
  body.system[1].cache_control = { type: 'ephemeral', ttl: '5m' };
  const run = await runBoth(body);
  assert.equal(run.meta.ttlTier, '5m');
  assert.ok(markers(body).every((m) => m.ttl === '5m'));
});

test('thinking blocks are never edited, even if they carry a marker', async () => {
  const body = longSessionBody();
  const thinking = body.messages[1].content.find((b: any) => b.type === 'thinking');
  thinking.cache_control = { type: 'ephemeral' };
  await runBoth(body);
  assert.deepEqual(thinking.cache_control, { type: 'ephemeral' });
});

test('CACHE_FIX_TTL_MAIN=none leaves markers alone; subagents use CACHE_FIX_TTL_SUBAGENT', async () => {
  const main = longSessionBody();
  const run = await runBoth(main, { CACHE_FIX_TTL_MAIN: 'none' });
  assert.equal(run.changed, false);
  assert.ok(markers(main).every((m) => m.ttl === undefined));

  const sub = longSessionBody();
  sub.system[1].text = "You are a Claude agent, built on Anthropic's Claude Agent SDK.";
  await runBoth(sub, { CACHE_FIX_TTL_MAIN: 'none', CACHE_FIX_TTL_SUBAGENT: '5m' });
  assert.ok(markers(sub).every((m) => m.ttl === '5m'));
});

test('an invalid ttl setting warns and falls back to 1h', async () => {
  const body = longSessionBody();
  const run = await runBoth(body, { CACHE_FIX_TTL_MAIN: '2h' });
  assert.match(run.warnings.join('\n'), /CACHE_FIX_TTL_MAIN="2h"/);
  assert.ok(markers(body).every((m) => m.ttl === '1h'));
});

test('a body that is not a messages request is ignored', async () => {
  for (const body of [null, 'text', [1, 2], { messages: 'nope' }]) {
    const run = await runBoth(body);
    assert.equal(run.changed, false);
  }
});
