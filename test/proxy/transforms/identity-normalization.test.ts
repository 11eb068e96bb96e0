import { test } from 'node:test';
import assert from 'node:assert/strict';
import { identityNormalization, normaliseMessageText } from '../../../proxy/src/transforms/identity-normalization.ts';
import { fingerprintStrip } from '../../../proxy/src/transforms/fingerprint-strip.ts';
import { longSessionBody } from '../helpers/long-session.ts';
import { runBuiltin } from '../helpers/run-builtin.ts';

test('a resumed session becomes byte-identical to the fresh one', async () => {
  const fresh = longSessionBody();
  const resumed = longSessionBody({ resumed: true });
  assert.notEqual(JSON.stringify(resumed), JSON.stringify(fresh));
  await runBuiltin(fingerprintStrip, resumed);
  const run = await runBuiltin(identityNormalization, resumed);
  assert.equal(run.changed, true);
  assert.ok(JSON.stringify(resumed) === JSON.stringify(fresh), 'resumed body differs from the fresh one after normalisation');
  assert.equal((await runBuiltin(identityNormalization, fresh)).changed, false);
});

test('only injected reminder text is rewritten, never what the user typed', async () => {
  const body = {
    system: [{ type: 'text', text: 'intro <session_knowledge a="1">x</session_knowledge>\nrest' }],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Last active: yesterday, SessionStart:resume hook success: is a string I typed' }] },
      { role: 'assistant', content: [{ type: 'text', text: '<system-reminder>Last active: now\n</system-reminder>' }] },
    ],
  };
  await runBuiltin(identityNormalization, body);
  assert.equal(body.system[0].text, 'intro rest');
  assert.equal(body.messages[0].content[0].text, 'Last active: yesterday, SessionStart:resume hook success: is a string I typed');
  assert.equal(body.messages[1].content[0].text, '<system-reminder>Last active: now\n</system-reminder>');
});

test('whitespace before a closing reminder tag in the system prompt is normalised', async () => {
  const a = { system: [{ type: 'text', text: '<system-reminder>\ncontext  \n\n</system-reminder>' }], messages: [] };
  const b = { system: [{ type: 'text', text: '<system-reminder>\ncontext\n</system-reminder>' }], messages: [] };
  await runBuiltin(identityNormalization, a);
  await runBuiltin(identityNormalization, b);
  assert.equal(a.system[0].text, b.system[0].text);
  assert.equal(normaliseMessageText('<system-reminder>\n<session-id>x</session-id>\nok\n</system-reminder>'), '<system-reminder>\nok\n</system-reminder>');
});
