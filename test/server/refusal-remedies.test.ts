// The gateway's refusals for an expired key, a model outside the key's list and a used-up budget say
// what to do in the words of the cause catalogue, next to their own facts, so the gateway and the
// client diagnosis cannot drift apart (they did: a used-up budget was diagnosed as a rate limit).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { causeEntry } from '../../core/causes/catalogue.ts';
import type { AuthContext } from '../../server/auth/key-authenticator.ts';
import { GatewayError } from '../../server/errors/gateway-error.ts';
import { MemoryBudgetCounter } from '../../server/limits/budget-counter.ts';
import { periodOf } from '../../server/limits/budget-periods.ts';
import { checkExpiry, checkModelAllowed } from '../../server/limits/key-enforcement.ts';
import { NO_BUDGETS, NO_LIMITS, NO_USER_LIMITS } from '../../server/limits/key-limits.ts';
import { checkBudgets } from '../../server/limits/quota-guard.ts';

const NOW = Date.parse('2026-11-27T04:00:00.000Z');
const auth = (limits: Partial<AuthContext['limits']>): AuthContext => ({ keyId: 'k1', userId: 'u1', username: 'ann', limits: { ...NO_LIMITS, ...limits }, userLimits: NO_USER_LIMITS });

function refusal(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('no refusal');
}

test('an expired key: its expiry, then the catalogue remedy', () => {
  const error = refusal(() => checkExpiry(auth({ expiresAt: '2026-11-01T00:00:00.000Z' }), NOW));
  assert.deepEqual([error.status, error.code], [401, 'key_expired']);
  assert.equal(error.message, `This API key expired at 2026-11-01T00:00:00.000Z. ${causeEntry('KEY_EXPIRED').userRemedy}`);
});

test('a model outside the key\'s list: the list, then the catalogue remedy', () => {
  const error = refusal(() => checkModelAllowed(auth({ models: ['demo-chat'] }), 'big-model', 'big-model'));
  assert.deepEqual([error.status, error.code], [403, 'model_not_allowed']);
  assert.ok(error.message.startsWith('This API key may not use the model "big-model". It is limited to: demo-chat. '));
  assert.ok(error.message.endsWith(causeEntry('MODEL_NOT_ALLOWED').userRemedy));
});

test('a used-up budget: quota, not a rate limit, with the reset time; x-should-retry false', async () => {
  const counter = new MemoryBudgetCounter();
  const holder = { subject: 'key:k1', label: 'This API key', budgets: { ...NO_BUDGETS, requestsDay: 1 } };
  await checkBudgets(counter, [holder], NOW);
  await counter.charge('key:k1', 'requests', periodOf('day', NOW), 1);
  const error = await checkBudgets(counter, [holder], NOW).then(
    () => assert.fail('no refusal'),
    (e: GatewayError) => e,
  );
  assert.deepEqual([error.status, error.code], [429, 'quota_exceeded']);
  assert.ok(error.message.includes(causeEntry('QUOTA_EXCEEDED').userRemedy), error.message);
  assert.match(error.message, /It resets at 2026-11-28T00:00:00\.000Z \(in 72000 s\)\.$/);
});
