import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { thinkingBlockSanitize, toolsHash } from '../../../proxy/src/transforms/thinking-block-sanitize.ts';
import type { BuiltinExtension } from '../../../proxy/src/transforms/types.ts';
import { longSessionBody } from '../helpers/long-session.ts';
import { newMeta } from '../helpers/run-builtin.ts';
import { tempDir } from '../helpers/temp-dir.ts';

function blocksOfType(body: any, type: string): any[] {
  return body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content.filter((b: any) => b.type === type) : []));
}

function instance(env: Record<string, string>, home = '/nonexistent-home', builtin: BuiltinExtension = thinkingBlockSanitize) {
  return builtin.create({ env, homeDir: home, warn: () => {}, now: () => new Date() });
}

async function send(ext: ReturnType<typeof instance>, body: any, sessionId: string | null = 'sess-1', status = 200) {
  const meta = newMeta({ sessionId });
  let changed = false;
  await ext.onRequest?.({ body, headers: {}, meta, markChanged: () => { changed = true; } });
  await ext.onResponseStart?.({ status, headers: {}, meta });
  return { meta, changed };
}

test('v1 (default) drops empty thinking from earlier turns and keeps the turn still in its tool loop', async () => {
  const body = longSessionBody({ turns: 6 });
  const lastAssistant = body.messages.at(-2);
  assert.equal(lastAssistant.content[0].thinking, '');
  const emptyBefore = blocksOfType(body, 'thinking').filter((b) => b.thinking === '').length;
  const { meta, changed } = await send(instance({}), body);
  assert.equal(changed, true);
  // Turns 0 and 3 had empty thinking; turn 5 is protected (its tool_use is answered after it).
  assert.equal(meta.session.sanitize?.thinking_blocks_dropped, emptyBefore - 1);
  assert.equal(body.messages.at(-2).content[0].thinking, '');
  assert.equal(blocksOfType(body, 'thinking').filter((b) => b.thinking === '').length, 1);
  // v1 never touches signed non-empty thinking or redacted thinking.
  assert.equal(blocksOfType(body, 'redacted_thinking').length, 1);
  assert.ok(blocksOfType(body, 'thinking').some((b) => b.thinking.startsWith('Step 1')));
});

test('an assistant turn left empty is removed; off leaves the body alone', async () => {
  const body = {
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: '  ', signature: 's' }] },
      { role: 'user', content: 'again' },
    ],
  };
  const off = structuredClone(body);
  await send(instance({}), body);
  assert.deepEqual(body.messages.map((m) => m.role), ['user', 'user']);
  const run = await send(instance({ CACHE_FIX_THINKING_SANITIZE: 'off' }), off);
  assert.equal(run.changed, false);
  assert.equal(off.messages.length, 3);
});

test('v2 drops signed and redacted thinking after the tool list changed, and only then', async () => {
  const ext = instance({ CACHE_FIX_THINKING_SANITIZE: 'v2' });
  const first = longSessionBody();
  const r1 = await send(ext, first);
  assert.equal(r1.meta.session.sanitize?.thinking_blocks_dropped_v2, 0);
  assert.equal(r1.meta.session.sanitize?.tools_hash_baseline, toolsHash(first.tools));

  const same = longSessionBody();
  assert.equal((await send(ext, same)).meta.session.sanitize?.thinking_blocks_dropped_v2, 0);

  const changedTools = longSessionBody();
  changedTools.tools.push({ name: 'mcp__new__tool', input_schema: { type: 'object' } });
  const r3 = await send(ext, changedTools);
  assert.ok((r3.meta.session.sanitize?.thinking_blocks_dropped_v2 as number) >= 2);
  assert.equal(blocksOfType(changedTools, 'redacted_thinking').length, 0);
  // The protected latest turn keeps its thinking block.
  assert.equal(changedTools.messages.at(-2).content[0].type, 'thinking');
  assert.equal(r3.meta.session.sanitize?.tools_hash_baseline, toolsHash(changedTools.tools));
});

test('v2 baseline advances only on a 2xx answer and is seeded from the session file after a restart', async (t) => {
  const ext = instance({ CACHE_FIX_THINKING_SANITIZE: 'v2' });
  const a = longSessionBody();
  await send(ext, a);
  const b = longSessionBody();
  b.tools.pop();
  await send(ext, b, 'sess-1', 400);
  const again = longSessionBody();
  again.tools.pop();
  // The 400 did not move the baseline, so the changed list is still "changed".
  assert.ok(((await send(ext, again)).meta.session.sanitize?.thinking_blocks_dropped_v2 as number) > 0);

  const home = tempDir(t);
  const dir = join(home, '.claude', 'quota-status', 'sessions');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'sess-9.json'), JSON.stringify({ tools_hash_baseline: 'feedfacefeedface' }));
  const restarted = instance({ CACHE_FIX_THINKING_SANITIZE: 'v2' }, home);
  const seeded = await send(restarted, longSessionBody(), 'sess-9');
  assert.ok((seeded.meta.session.sanitize?.thinking_blocks_dropped_v2 as number) > 0);

  const sessionless = await send(restarted, longSessionBody(), null);
  assert.equal(sessionless.meta.session.sanitize?.thinking_blocks_dropped_v2, undefined);
});
