// The verdict: one root cause (the first failing check, never status.classify, which only repeats
// another), the other findings as its evidence; nothing failing is OK, or "not reproduced" when a
// failure was reported.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CheckResult } from '../../../core/doctor/check.ts';
import { verdictOf } from '../../../core/doctor/verdict.ts';

const check = (id: string, status: CheckResult['status'], cause: CheckResult['cause']): CheckResult => ({ id, status, cause, observed: `${id} saw`, remedy: status === 'pass' ? null : `fix ${id}`, commands: [] });

test('the first failure is the root cause; the rest is evidence', () => {
  const v = verdictOf([check('proxy.running', 'warn', 'PROXY_DOWN'), check('proxy.upstream', 'fail', 'PROXY_UPSTREAM_DEFAULT'), check('messages.request', 'fail', 'PROXY_UPSTREAM_MISMATCH'), check('status.classify', 'fail', 'PROXY_UPSTREAM_DEFAULT')]);
  assert.deepEqual([v.cause, v.check, v.remedy], ['PROXY_UPSTREAM_DEFAULT', 'proxy.upstream', 'fix proxy.upstream']);
  assert.deepEqual(v.evidence, ['messages.request PROXY_UPSTREAM_MISMATCH', 'status.classify PROXY_UPSTREAM_DEFAULT', 'proxy.running PROXY_DOWN']);
  assert.equal(verdictOf([check('status.classify', 'fail', 'KEY_REJECTED'), check('direct.request', 'fail', 'KEY_REJECTED')]).check, 'direct.request', 'status.classify is never the root');
});

test('nothing failing: OK, or not reproduced when a status or a client failure was reported', () => {
  const passing = [check('messages.request', 'pass', 'OK'), check('client.base-url', 'warn', 'BASE_URL_NOT_PROXY')];
  assert.deepEqual([verdictOf(passing).cause, verdictOf(passing).remedy], ['OK', null]);
  const reported = verdictOf(passing, { status: 503 });
  assert.equal(reported.cause, 'FAILURE_NOT_REPRODUCED');
  assert.match(reported.remedy!, /The 503 was not reproduced/);
  const client = verdictOf(passing, { clientExitCode: 1 });
  assert.match(client.observed, /^The client exited with 1, but no check fails now, and the short real request gets a normal answer/);
  assert.match(client.remedy!, /read the client's own message/);
});
