import { test } from 'node:test';
import assert from 'node:assert/strict';
import { auto1mGuard } from '../../../proxy/src/transforms/auto-1m-guard.ts';
import { longSessionBody } from '../helpers/long-session.ts';
import { runBuiltin } from '../helpers/run-builtin.ts';

const BETAS = 'claude-code-20250219, context-1m-2025-08-07,interleaved-thinking-2025-05-14';

test('warn (default) leaves the header, records the session fields and warns on every request', async () => {
  for (let i = 0; i < 2; i += 1) {
    const run = await runBuiltin(auto1mGuard, longSessionBody(), { headers: { 'anthropic-beta': BETAS } });
    assert.equal(run.headers['anthropic-beta'], BETAS);
    assert.equal(run.meta.session.auto1m?.auto_1m_action, 'warn');
    assert.equal(run.meta.session.auto1m?.auto_1m_detected, true);
    assert.match(run.warnings[0], /context-1m-2025-08-07 detected/);
  }
});

test('strip removes only the 1M token from the header that is forwarded', async () => {
  const run = await runBuiltin(auto1mGuard, longSessionBody(), { headers: { 'anthropic-beta': BETAS }, env: { CACHE_FIX_AUTO_1M_GUARD: 'strip' } });
  assert.equal(run.headers['anthropic-beta'], 'claude-code-20250219, interleaved-thinking-2025-05-14');
  assert.equal(run.meta.session.auto1m?.auto_1m_action, 'stripped');
  const only = await runBuiltin(auto1mGuard, {}, { headers: { 'anthropic-beta': 'context-1m-2025-08-07' }, env: { CACHE_FIX_AUTO_1M_GUARD: 'strip' } });
  assert.equal('anthropic-beta' in only.headers, false);
});

test('off does nothing; requests without the token are untouched', async () => {
  const off = await runBuiltin(auto1mGuard, {}, { headers: { 'anthropic-beta': BETAS }, env: { CACHE_FIX_AUTO_1M_GUARD: 'off' } });
  assert.equal(off.headers['anthropic-beta'], BETAS);
  assert.equal(off.meta.session.auto1m, undefined);
  const plain = await runBuiltin(auto1mGuard, {}, { headers: { 'anthropic-beta': 'claude-code-20250219' }, env: { CACHE_FIX_AUTO_1M_GUARD: 'strip' } });
  assert.equal(plain.headers['anthropic-beta'], 'claude-code-20250219');
  assert.deepEqual(plain.warnings, []);
});
