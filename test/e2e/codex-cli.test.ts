// The real Responses-API client (the pinned Codex CLI from the npm registry) against the gateway,
// configured with the provider block `gwctl config client --type responses` prints: one
// non-interactive prompt (`codex exec`) answered by the demo provider, and the same through
// translation, with the demo behind a chat-completions upstream and behind a messages upstream (a
// second gateway: servers no test wrote). Loopback only: temp HOME and CODEX_HOME, update checks,
// analytics and plugin syncs off, no proxy variables.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gwctlJson, makeSandbox, type Sandbox } from '../cli/gwctl-harness.ts';
import { GatewayProcess } from '../helpers/gateway-process.ts';
import { CODEX_CLI, installRealClient, runCodex, tempHome, type RunResult } from '../helpers/real-clients.ts';

const DEMO_REPLY = /Demo reply to "say pong"\./;

function explain(result: RunResult): string {
  return `exit ${result.code} signal ${result.signal}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr.slice(-4000)}`;
}

describe('the real Codex CLI through the gateway', { timeout: 900_000 }, () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  let sandbox: Sandbox;

  before(async () => {
    // Installing the pinned client is the slow part of a fresh run; do it once, up front.
    await installRealClient(CODEX_CLI);
    sandbox = makeSandbox();
    cleanups.push(() => sandbox.cleanup());
  });
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** The provider block as a user gets it from gwctl for this gateway and model. */
  async function printedConfig(gatewayUrl: string, model: string): Promise<string> {
    const printed = await gwctlJson(['config', 'client', '--type', 'responses'], { ...sandbox.env, GWCTL_BASE_URL: gatewayUrl, GWCTL_CLIENT_MODEL: model });
    assert.equal(printed.code, 0, printed.err);
    return printed.json.clients[0].files[0].text as string;
  }

  async function codex(gateway: GatewayProcess, key: string, model = 'demo-chat'): Promise<RunResult> {
    const home = tempHome('gwctl-codex-');
    cleanups.push(home.cleanup);
    const config = await printedConfig(gateway.textUrl, model);
    // The printed block reads the key from MSGAPI_AUTH_TOKEN (env_key); nothing else carries it.
    return runCodex({ home: home.home, config, env: { MSGAPI_AUTH_TOKEN: key }, prompt: 'say pong' });
  }

  test('with the demo provider: prints the demo reply, exit 0', async () => {
    const gateway = await GatewayProcess.start();
    cleanups.push(() => gateway.cleanup());
    const { key } = await gateway.createKey('admin', 'codex');
    const result = await codex(gateway, key);
    assert.equal(result.code, 0, explain(result));
    assert.match(result.stdout, DEMO_REPLY, explain(result));
  });

  test('a deleted key stops it with the reason (401), no demo reply', async () => {
    const gateway = await GatewayProcess.start();
    cleanups.push(() => gateway.cleanup());
    const doomed = await gateway.createKey('admin', 'doomed');
    assert.equal((await gateway.admin(['key', 'delete', doomed.id])).code, 0);
    const result = await codex(gateway, doomed.key);
    assert.notEqual(result.code, 0, explain(result));
    assert.match(result.stdout + result.stderr, /401|Invalid API key|not valid/i, explain(result));
    assert.doesNotMatch(result.stdout, DEMO_REPLY);
  });

  for (const [protocol, provider] of [
    ['chat-completions', (url: string) => ({ name: 'chat-up', type: 'openai', baseUrl: `${url}/v1`, apiKeyEnv: 'FRONT_UPSTREAM_KEY', timeoutMs: 60_000, models: [{ name: 'codex-via-chat', upstreamModel: 'demo-chat' }] })],
    ['messages', (url: string) => ({ name: 'msgs-up', type: 'anthropic', baseUrl: url, apiKeyEnv: 'FRONT_UPSTREAM_KEY', authHeader: 'bearer', timeoutMs: 60_000, models: [{ name: 'codex-via-messages', upstreamModel: 'demo-chat' }] })],
  ] as const) {
    test(`a model served by a ${protocol} upstream, through translation: prints the demo reply`, async () => {
      const upstream = await GatewayProcess.start();
      cleanups.push(() => upstream.cleanup());
      const upstreamKey = (await upstream.createKey('admin', 'front-gateway')).key;
      const front = await GatewayProcess.start({ providers: { providers: [provider(upstream.textUrl)] }, env: { FRONT_UPSTREAM_KEY: upstreamKey } });
      cleanups.push(() => front.cleanup());
      const { key } = await front.createKey('admin', 'codex');
      const model = protocol === 'messages' ? 'codex-via-messages' : 'codex-via-chat';
      const result = await codex(front, key, model);
      assert.equal(result.code, 0, `${explain(result)}\nfront gateway stderr:\n${front.stderr}`);
      assert.match(result.stdout, DEMO_REPLY, explain(result));
    });
  }
});
