// gwctl diagnose --profile for the clients that are not messages clients, against the built gateway:
// the short real request goes in the client's own protocol (Codex: Responses, Gemini CLI: the Gemini
// API, OpenCode and Qwen Code: chat completions) and is classified by the same causes; a used-up
// budget and a model outside the key's list are found in that protocol too.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GatewayProcess } from '../helpers/gateway-process.ts';
import { gwctlJson, makeSandbox, type Sandbox } from '../cli/gwctl-harness.ts';

let gateway: GatewayProcess;
const sandboxes: Sandbox[] = [];

before(async () => {
  gateway = await GatewayProcess.start();
});
after(async () => {
  await gateway?.cleanup();
  for (const s of sandboxes) s.cleanup();
});

interface Check {
  id: string;
  status: string;
  cause: string | null;
  observed: string;
}

async function diagnose(profile: string, key: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number; checks: Map<string, Check>; out: string; err: string }> {
  const s = makeSandbox({ GWCTL_BASE_URL: gateway.textUrl, MSGAPI_AUTH_TOKEN: key, ...env });
  sandboxes.push(s);
  const run = await gwctlJson<{ checks: Check[] }>(['diagnose', '--profile', profile], s.env);
  assert.ok(!run.out.includes(key) && !run.err.includes(key), 'the key is never printed');
  return { code: run.code, checks: new Map(run.json.checks.map((c) => [c.id, c])), out: run.out, err: run.err };
}

test('each profile\'s short request in its own protocol gets a normal answer', async () => {
  const key = (await gateway.createKey('admin', 'protocols')).key;
  const expected: Record<string, RegExp> = {
    codex: /POST http:\/\/127\.0\.0\.1:\d+\/v1\/responses \(model [\w.-]+\) → 200.*a Responses answer/,
    gemini: /POST http:\/\/127\.0\.0\.1:\d+\/v1beta\/models\/[\w.-]+:generateContent \(model [\w.-]+\) → 200.*a Gemini API answer/,
    opencode: /POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions \(model [\w.-]+\) → 200.*a chat completions answer/,
    qwen: /POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions \(model [\w.-]+\) → 200.*a chat completions answer/,
  };
  for (const [profile, pattern] of Object.entries(expected)) {
    const run = await diagnose(profile, key);
    const check = run.checks.get('protocol.request');
    assert.ok(check, `${profile}: protocol.request ran: ${[...run.checks.keys()].join(', ')}`);
    assert.equal(check.status, 'pass', `${profile}: ${check.observed}`);
    assert.match(check.observed, pattern, profile);
    assert.ok(!run.checks.has('messages.request'), `${profile}: no messages request for a ${profile} client`);
  }
});

test('a used-up budget and a model outside the key\'s list, found in the client\'s protocol', async () => {
  const budgeted = await gateway.adminJson<{ key: string }>(['key', 'create', '--user', 'admin', '--name', 'one-a-day', '--budget-requests-day', '1']);
  // The one real request uses the budget up; the next diagnosis meets the quota in the model list
  // and, with the model set as the user would (client.model), in the Responses request as well.
  assert.equal((await diagnose('codex', budgeted.key)).checks.get('protocol.request')?.status, 'pass');
  const again = await diagnose('codex', budgeted.key, { GWCTL_CLIENT_MODEL: 'demo-chat' });
  assert.equal(again.code, 1);
  assert.equal(again.checks.get('direct.request')?.cause, 'QUOTA_EXCEEDED');
  const quota = again.checks.get('protocol.request')!;
  assert.equal(quota.cause, 'QUOTA_EXCEEDED', quota.observed);
  assert.match(quota.observed, /\/v1\/responses \(model demo-chat\) → 429 quota_exceeded/);

  // A key for embeddings only: the Gemini CLI's chat model is refused in the Gemini API's own shape.
  const narrow = await gateway.adminJson<{ key: string }>(['key', 'create', '--user', 'admin', '--name', 'embeddings-only', '--models', 'demo-embedding']);
  const check = (await diagnose('gemini', narrow.key, { GWCTL_CLIENT_MODEL: 'demo-chat' })).checks.get('protocol.request')!;
  assert.equal(check.cause, 'MODEL_NOT_AVAILABLE', check.observed);
  assert.match(check.observed, /:generateContent \(model demo-chat\) → 403/);
});
