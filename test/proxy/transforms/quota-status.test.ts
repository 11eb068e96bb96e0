import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cacheFigures, accountStatus } from '../../../proxy/src/telemetry/quota-status-writer.ts';
import { sessionFileName } from '../../../proxy/src/telemetry/session-file.ts';
import { newMeta } from '../helpers/run-builtin.ts';

const NOW = new Date('2026-11-23T15:00:00Z');

test('hit rate is the cache-read share of prompt tokens as a one-decimal string, N/A without tokens', () => {
  const meta = newMeta({ startUsage: { input_tokens: 50, cache_read_input_tokens: 900, cache_creation_input_tokens: 50 } });
  const figures = cacheFigures(meta, NOW);
  assert.equal(figures.hit_rate, '90.0');
  assert.equal(figures.cache_read, 900);
  assert.equal(figures.cache_creation, 50);
  assert.equal(cacheFigures(newMeta(), NOW).hit_rate, 'N/A');
  assert.equal(cacheFigures(newMeta(), NOW).ttl_tier, 'unknown');
});

test('the per-ttl breakdown decides ttl_tier when the upstream sends it', () => {
  const meta = newMeta({
    startUsage: { input_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 70, cache_creation: { ephemeral_5m_input_tokens: 70, ephemeral_1h_input_tokens: 0 } },
  });
  const figures = cacheFigures(meta, NOW);
  assert.equal(figures.ttl_tier, '5m');
  assert.equal(figures.ephemeral_5m, 70);
  assert.equal(figures.ephemeral_1h, 0);
});

test('session ids that are not safe file names are hashed', () => {
  assert.equal(sessionFileName('2b1c7a8e-4f1e'), '2b1c7a8e-4f1e');
  assert.equal(sessionFileName(null), 'unknown');
  assert.match(sessionFileName('../../etc/passwd'), /^inv-[0-9a-f]{16}$/);
});

test('account status reads the unified rate-limit headers', () => {
  const status = accountStatus(
    {
      'anthropic-ratelimit-unified-5h-utilization': '0.42',
      'anthropic-ratelimit-unified-5h-reset': '1795000000',
      'anthropic-ratelimit-unified-status': 'allowed',
      'request-id': 'req_1',
      'content-type': 'text/event-stream',
    },
    NOW,
  );
  assert.deepEqual(status.five_hour, { utilization: 0.42, pct: 42, resets_at: new Date(1795000000 * 1000).toISOString() });
  assert.equal(status.status, 'allowed');
  assert.equal(status.overage_status, 'unknown');
  assert.equal(status.peak_hour, true);
  assert.deepEqual(Object.keys(status.all_headers as object).sort(), ['anthropic-ratelimit-unified-5h-reset', 'anthropic-ratelimit-unified-5h-utilization', 'anthropic-ratelimit-unified-status', 'request-id']);
});
