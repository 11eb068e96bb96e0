// The real messages-protocol client (the pinned Claude Code CLI from the npm registry) against the
// gateway: directly, through the local cache proxy, and against a model that a chat-completions
// upstream serves through translation (a second gateway: a real chat-completions server no test
// wrote). Everything stays on loopback; the client runs with a temp HOME and non-essential traffic off.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { GatewayProcess } from '../helpers/gateway-process.ts';
import { installRealClient, CLAUDE_CODE, runClaude, tempHome, type RunResult } from '../helpers/real-clients.ts';
import { SOURCE_BIN, startServerProcess, type RunningCli } from '../proxy/helpers/run-cli.ts';
import { waitFor } from '../helpers/wait-for.ts';

const DEMO_REPLY = /Demo reply to "say pong"\./;

function explain(result: RunResult): string {
  return `exit ${result.code} signal ${result.signal}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`;
}

describe('the real Claude Code CLI through the gateway', { timeout: 900_000 }, () => {
  let gateway: GatewayProcess;
  let key: string;
  const homes: Array<() => void> = [];

  before(async () => {
    // Installing the pinned client is the slow part of a fresh run; do it once, up front.
    await installRealClient(CLAUDE_CODE);
    gateway = await GatewayProcess.start();
    key = (await gateway.createKey('admin', 'claude-code')).key;
  });

  after(async () => {
    await gateway?.cleanup();
    for (const cleanup of homes) cleanup();
  });

  function home(): string {
    const made = tempHome();
    homes.push(made.cleanup);
    return made.home;
  }

  test('(a) directly against the gateway with the demo provider: prints the demo reply, exit 0', async () => {
    const result = await runClaude({
      home: home(),
      prompt: 'say pong',
      env: { ANTHROPIC_BASE_URL: gateway.textUrl, ANTHROPIC_AUTH_TOKEN: key, ANTHROPIC_MODEL: 'demo-chat' },
    });
    assert.equal(result.code, 0, explain(result));
    assert.match(result.stdout, DEMO_REPLY, explain(result));
  });

  test('(a) with the key as x-api-key (ANTHROPIC_API_KEY) as well', async () => {
    const result = await runClaude({
      home: home(),
      prompt: 'say pong',
      env: { ANTHROPIC_BASE_URL: gateway.textUrl, ANTHROPIC_API_KEY: key, ANTHROPIC_MODEL: 'demo-chat' },
    });
    assert.equal(result.code, 0, explain(result));
    assert.match(result.stdout, DEMO_REPLY, explain(result));
  });

  test('a deleted key stops the client at once with the reason (401, x-should-retry: false)', async () => {
    const doomed = await gateway.createKey('admin', 'doomed');
    const deleted = await gateway.admin(['key', 'delete', doomed.id]);
    assert.equal(deleted.code, 0, deleted.stderr);
    const result = await runClaude({
      home: home(),
      prompt: 'say pong',
      env: { ANTHROPIC_BASE_URL: gateway.textUrl, ANTHROPIC_AUTH_TOKEN: doomed.key, ANTHROPIC_MODEL: 'demo-chat' },
    });
    assert.notEqual(result.code, 0, explain(result));
    assert.match(result.stdout + result.stderr, /401|Invalid API key/, explain(result));
    assert.doesNotMatch(result.stdout + result.stderr, DEMO_REPLY);
  });

  describe('(b) through the local cache proxy in front of the gateway', () => {
    let proxy: RunningCli;
    let proxyHome: string;

    before(async () => {
      proxyHome = home();
      proxy = await startServerProcess(
        process.execPath,
        ['--import', 'tsx', SOURCE_BIN, 'server'],
        { PATH: process.env.PATH ?? '', HOME: proxyHome, CACHE_FIX_PROXY_UPSTREAM: gateway.textUrl, CACHE_FIX_PROXY_PORT: '0' },
        60_000,
      );
    });

    after(async () => {
      await proxy?.stop();
    });

    test('prints the demo reply, exits 0, and leaves a quota-status session file under the proxy HOME', async () => {
      const result = await runClaude({
        home: home(),
        prompt: 'say pong',
        env: { ANTHROPIC_BASE_URL: `http://127.0.0.1:${proxy.port}`, ANTHROPIC_AUTH_TOKEN: key, ANTHROPIC_MODEL: 'demo-chat' },
      });
      assert.equal(result.code, 0, `${explain(result)}\nproxy stderr:\n${proxy.stderr()}`);
      assert.match(result.stdout, DEMO_REPLY, explain(result));
      const sessions = join(proxyHome, '.claude', 'quota-status', 'sessions');
      const sessionFiles = () => (existsSync(sessions) ? readdirSync(sessions).filter((f) => f.endsWith('.json')) : []);
      await waitFor(() => sessionFiles().length > 0, { timeoutMs: 30_000, what: `a quota-status session file in ${sessions}` });
    });
  });

  describe('a model served by a chat-completions upstream, through translation', () => {
    let upstreamGateway: GatewayProcess;
    let front: GatewayProcess;
    let frontKey: string;

    before(async () => {
      upstreamGateway = await GatewayProcess.start();
      const upstreamKey = (await upstreamGateway.createKey('admin', 'front-gateway')).key;
      front = await GatewayProcess.start({
        providers: {
          providers: [
            {
              name: 'chat-upstream',
              type: 'openai',
              baseUrl: `${upstreamGateway.textUrl}/v1`,
              apiKeyEnv: 'E2E_CHAT_UPSTREAM_KEY',
              models: [{ name: 'claude-via-chat', upstreamModel: 'demo-chat' }],
            },
          ],
        },
        env: { E2E_CHAT_UPSTREAM_KEY: upstreamKey },
      });
      frontKey = (await front.createKey('admin', 'claude-code')).key;
    });

    after(async () => {
      await front?.cleanup();
      await upstreamGateway?.cleanup();
    });

    test('prints the reply of the chat upstream, exit 0', async () => {
      const result = await runClaude({
        home: home(),
        prompt: 'say pong',
        env: { ANTHROPIC_BASE_URL: front.textUrl, ANTHROPIC_AUTH_TOKEN: frontKey, ANTHROPIC_MODEL: 'claude-via-chat' },
      });
      assert.equal(result.code, 0, `${explain(result)}\nfront gateway stderr:\n${front.stderr}`);
      assert.match(result.stdout, DEMO_REPLY, explain(result));
    });
  });
});
