import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sortStabilization } from '../../../proxy/src/transforms/sort-stabilization.ts';
import { sortListAfterHeader } from '../../../proxy/src/transforms/shared/sorted-list.ts';
import { longSessionBody } from '../helpers/long-session.ts';
import { runBuiltin } from '../helpers/run-builtin.ts';

test('tool definitions (MCP tools included) are sorted by name, so connection order does not matter', async () => {
  const a = longSessionBody({ toolRotation: 3 });
  const b = longSessionBody({ toolRotation: 19 });
  assert.notEqual(JSON.stringify(a.tools), JSON.stringify(b.tools));
  assert.equal((await runBuiltin(sortStabilization, a)).changed, true);
  await runBuiltin(sortStabilization, b);
  assert.equal(JSON.stringify(a.tools), JSON.stringify(b.tools));
  const names = a.tools.map((t: any) => t.name);
  assert.deepEqual(names, [...names].sort());
  assert.ok(names.includes('mcp__github__create_issue'));
});

test('the skills list inside a reminder is sorted, the surrounding text kept', async () => {
  const body = longSessionBody();
  await runBuiltin(sortStabilization, body);
  const text: string = body.messages[0].content[0].text;
  assert.equal(
    text,
    '<system-reminder>\nThe following skills are available for use with the Skill tool:\n\n- analyze: Analyze logs\n- deploy: Deploy the service\n- review: Review a pull request\n</system-reminder>',
  );
});

test('an already sorted request is reported unchanged', async () => {
  const body = longSessionBody();
  await runBuiltin(sortStabilization, body);
  assert.equal((await runBuiltin(sortStabilization, body)).changed, false);
});

test('prose after a header is never reordered, and continuation lines stay with their entry', () => {
  const prose = 'The following deferred tools are now available:\nFirst do this thing.\nThen that one.';
  assert.equal(sortListAfterHeader(prose, 'deferred tools are now available'), prose);
  const withContinuation = 'deferred tools are now available\n- zeta\n  more about zeta\n- alpha\n\ntrailing';
  assert.equal(sortListAfterHeader(withContinuation, 'deferred tools are now available'), 'deferred tools are now available\n- alpha\n- zeta\n  more about zeta\n\ntrailing');
});
