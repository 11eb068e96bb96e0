// `gwctl start -- -p "say pong"` with the real messages-protocol client (the pinned Claude Code CLI
// from the npm registry) as a new user runs it: only the key (in the neutral MSGAPI_AUTH_TOKEN) and
// the gateway's address are set; gwctl hands the key to the client in the variable it reads and
// picks a model the gateway serves. Through the repo's cache proxy when it is healthy, directly when
// it is down, with a model served through translation; a client that fails (a deleted key) is
// followed by a diagnosis naming the cause.
// Everything stays on loopback, with a temp HOME and the client's non-essential traffic off.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { GWCTL_BIN } from '../cli/gwctl-harness.ts';
import { unusedPort } from '../helpers/fake-proxy.ts';
import { GatewayProcess } from '../helpers/gateway-process.ts';
import { CLAUDE_CODE, installRealClient, realClientEnv, tempHome } from '../helpers/real-clients.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { SOURCE_BIN, startServerProcess, type RunningCli } from '../proxy/helpers/run-cli.ts';

const DEMO_REPLY = /Demo reply to "say pong"\./;
/** A bound for one gwctl start with the real client, not a timing assertion (slow shared machines). */
const RUN_LIMIT_MS = 300_000;

interface GwctlRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

function explain(run: GwctlRun): string {
  return `exit ${run.code} signal ${run.signal}\nstdout:\n${run.out}\nstderr:\n${run.err}`;
}

/** `node bin/gwctl.js <args>` in its own process, killed if it overruns the bound. */
function gwctl(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<GwctlRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [GWCTL_BIN, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (out += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => (err += t));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out, err });
    });
  });
}

/** The --json document after the client's own output on stdout: it starts at a line that is just "{". */
function reportOf(run: GwctlRun): any {
  const start = run.out.search(/^\{$/m);
  assert.ok(start >= 0, `no JSON report on stdout\n${explain(run)}`);
  return JSON.parse(run.out.slice(start));
}

describe('gwctl start with the real Claude Code CLI', { timeout: 1_500_000 }, () => {
  let gateway: GatewayProcess;
  let key: string;
  let clientDir: string;
  let proxy: RunningCli;
  let proxyHome: string;
  const cleanups: Array<() => void> = [];

  before(async () => {
    // Installing the pinned client is the slow part of a fresh run; do it once, up front.
    clientDir = dirname(await installRealClient(CLAUDE_CODE));
    gateway = await GatewayProcess.start();
    key = (await gateway.createKey('admin', 'gwctl-start')).key;
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
    await gateway?.cleanup();
    for (const cleanup of cleanups) cleanup();
  });

  function home(): string {
    const made = tempHome('gwctl-start-real-');
    cleanups.push(made.cleanup);
    return made.home;
  }

  /** A new user's shell: the installed client on PATH, only the key and the gateway address set. */
  function shell(proxyUrl: string, token = key): { env: NodeJS.ProcessEnv; cwd: string } {
    const cwd = home();
    const env = realClientEnv(cwd, { PATH: `${clientDir}:${process.env.PATH ?? ''}`, MSGAPI_AUTH_TOKEN: token, GWCTL_BASE_URL: gateway.textUrl, GWCTL_PROXY_URL: proxyUrl });
    return { env, cwd };
  }

  test('proxy healthy: through the proxy, the demo reply, exit 0', async () => {
    const proxyUrl = `http://127.0.0.1:${proxy.port}`;
    const { env, cwd } = shell(proxyUrl);
    const run = await gwctl(['start', '--json', '--', '-p', 'say pong'], env, cwd);
    assert.equal(run.code, 0, `${explain(run)}\nproxy stderr:\n${proxy.stderr()}`);
    assert.match(run.out, DEMO_REPLY, explain(run));
    const report = reportOf(run);
    assert.deepEqual([report.route.kind, report.route.baseUrl, report.exitCode, report.diagnosis], ['proxy', proxyUrl, 0, null]);
    assert.deepEqual([report.profile, report.model.id, report.model.source], ['claude', 'demo-chat', 'automatic']);
    assert.deepEqual(report.credential, { clientVar: 'ANTHROPIC_AUTH_TOKEN', foundIn: 'MSGAPI_AUTH_TOKEN', sources: ['ANTHROPIC_AUTH_TOKEN', 'MSGAPI_AUTH_TOKEN'] });
    assert.equal(report.client.env.ANTHROPIC_BASE_URL, proxyUrl);
    assert.equal(report.client.env.MSGAPI_AUTH_TOKEN, null, 'exactly one credential variable reaches the client');
    assert.match(run.err, /gwctl: proxy route → http:\/\/127\.0\.0\.1:\d+, model demo-chat \(automatic\); starting claude/);
    assert.ok(!run.out.includes(key) && !run.err.includes(key), 'the key is never printed');
    // The proxy saw the session: it records it under its own HOME.
    const sessions = join(proxyHome, '.claude', 'quota-status', 'sessions');
    await waitFor(() => existsSync(sessions) && readdirSync(sessions).some((f) => f.endsWith('.json')), { timeoutMs: 60_000, what: 'a quota-status session file under the proxy HOME' });
  });

  test('proxy down: directly against the gateway, the demo reply, exit 0', async () => {
    const { env, cwd } = shell(`http://127.0.0.1:${await unusedPort()}`);
    const run = await gwctl(['start', '--', '-p', 'say pong'], env, cwd);
    assert.equal(run.code, 0, explain(run));
    assert.match(run.out, DEMO_REPLY, explain(run));
    assert.match(run.err, new RegExp(`^gwctl start: direct route → ${gateway.textUrl.replace(/[.]/g, '\\.')}\\n`));
    assert.match(run.err, /why {7}the proxy does not answer .*; starting directly against http:\/\/127\.0\.0\.1:\d+/);
    assert.match(run.err, /key {7}from MSGAPI_AUTH_TOKEN, handed to the client as ANTHROPIC_AUTH_TOKEN/);
    assert.match(run.err, /model {5}demo-chat: automatic: the gateway lists no claude-… model/);
  });

  test('a claude-… model that a chat-completions upstream serves through translation: start sets it, the reply comes back', async () => {
    // A second gateway (a real chat-completions server no test wrote) behind a front gateway that
    // serves only the translated claude-via-chat, not the client's default model.
    const upstream = await GatewayProcess.start();
    let front: GatewayProcess | undefined;
    try {
      const upstreamKey = (await upstream.createKey('admin', 'front-gateway')).key;
      front = await GatewayProcess.start({
        providers: { providers: [{ name: 'chat-upstream', type: 'openai', baseUrl: `${upstream.textUrl}/v1`, apiKeyEnv: 'E2E_CHAT_UPSTREAM_KEY', models: [{ name: 'claude-via-chat', upstreamModel: 'demo-chat' }] }] },
        env: { E2E_CHAT_UPSTREAM_KEY: upstreamKey },
      });
      const frontKey = (await front.createKey('admin', 'gwctl-start')).key;
      const cwd = home();
      const env = realClientEnv(cwd, { PATH: `${clientDir}:${process.env.PATH ?? ''}`, MSGAPI_AUTH_TOKEN: frontKey, GWCTL_BASE_URL: front.textUrl, GWCTL_PROXY_URL: `http://127.0.0.1:${await unusedPort()}` });
      const run = await gwctl(['start', '--', '-p', 'say pong'], env, cwd);
      assert.equal(run.code, 0, `${explain(run)}\nfront gateway stderr:\n${front.stderr}`);
      assert.match(run.out, DEMO_REPLY, explain(run));
      assert.match(run.err, /model {5}claude-via-chat: automatic: the gateway does not serve claude-opus-4-8, the model the client asks for by itself/);
    } finally {
      await front?.cleanup();
      await upstream.cleanup();
    }
  });

  test('a deleted key: the client fails, and a diagnosis of the route it used names the cause', async () => {
    const doomed = await gateway.createKey('admin', 'doomed');
    const deleted = await gateway.admin(['key', 'delete', doomed.id]);
    assert.equal(deleted.code, 0, deleted.stderr);
    const proxyUrl = `http://127.0.0.1:${proxy.port}`;
    const { env, cwd } = shell(proxyUrl, doomed.key);
    const run = await gwctl(['start', '--json', '--', '-p', 'say pong'], env, cwd);
    assert.notEqual(run.code, 0, explain(run));
    assert.doesNotMatch(run.out, DEMO_REPLY);
    assert.match(run.err, /claude exited with code \d+; diagnosing what it saw on the proxy route/);
    const report = reportOf(run);
    assert.equal(report.exitCode, run.code, "gwctl exits with the client's code");
    assert.ok(report.warnings.some((w: { cause: string }) => w.cause === 'KEY_REJECTED'), 'the model list already answered 401 before the start');
    const probe = report.diagnosis.checks.find((c: { id: string }) => c.id === 'messages.request');
    assert.equal(probe.cause, 'KEY_REJECTED', JSON.stringify(report.diagnosis, null, 2));
    assert.match(probe.observed, /through the proxy, real request, may cost a few tokens\) → 401.*answered by the service at http:\/\/127\.0\.0\.1:\d+ itself, through the proxy/);
    assert.equal(report.diagnosis.verdict.cause, 'KEY_REJECTED');
    assert.match(report.diagnosis.verdict.remedy, /A deleted key is gone for good: create a new one on http:\/\/127\.0\.0\.1:\d+\/keys/);
    assert.ok(!run.out.includes(doomed.key) && !run.err.includes(doomed.key));
  });
});
