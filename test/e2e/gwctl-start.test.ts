// gwctl start as a user runs it (its own process), with a fake client program that records the
// environment and arguments it received: healthy proxy → proxy address; degraded → direct; pinned
// settings → backed up, cleaned, restored; token missing → refused; signals reach the client.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FakeProxy } from '../helpers/fake-proxy.ts';
import { installFakeClient, readClientRecord } from '../helpers/fake-client.ts';
import { GatewayProcess } from '../helpers/gateway-process.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { gwctl, gwctlJson, gwctlProcess, makeSandbox, type Sandbox } from '../cli/gwctl-harness.ts';

let gateway: GatewayProcess;
let healthy: FakeProxy;
let degraded: FakeProxy;
let key: string;
const sandboxes: Sandbox[] = [];

before(async () => {
  [gateway, healthy, degraded] = await Promise.all([GatewayProcess.start(), FakeProxy.start('ok'), FakeProxy.start('degraded')]);
  const s = user(healthy);
  const created = await gwctlJson(['admin', 'key', 'create', '--user', 'admin', '--data-dir', gateway.dataDir], s.env);
  key = created.json.key;
});
after(async () => {
  await Promise.all([gateway?.cleanup(), healthy?.close(), degraded?.close()]);
  for (const s of sandboxes) s.cleanup();
});

/** A user's machine: the fake client installed as `claude`, gwctl pointed at the gateway and a proxy. */
function user(proxy: FakeProxy, env: NodeJS.ProcessEnv = {}): Sandbox & { record: string } {
  const s = makeSandbox({ GWCTL_BASE_URL: gateway.textUrl, GWCTL_PROXY_URL: proxy.url, ...env });
  sandboxes.push(s);
  installFakeClient(s.bin, 'claude');
  const record = join(s.root, 'client-record.json');
  s.env.FAKE_CLIENT_RECORD = record;
  return Object.assign(s, { record });
}

describe('gwctl start launching the client', { concurrency: 4 }, () => {
  test('proxy degraded → direct to the gateway root, which answers with the same token', async () => {
    const s = user(degraded, { MSGAPI_AUTH_TOKEN: key, GWCTL_BASE_URL: `${gateway.textUrl}/v1` });
    // In-process (the fake client prints nothing): the launch path is the same, the start is faster.
    const run = await gwctl(['start'], s.env);
    assert.equal(run.code, 0, run.err);
    assert.equal(run.out, '', 'the report goes to stderr; stdout belongs to the client');
    assert.match(run.err, /direct route → http:\/\/127\.0\.0\.1:\d+\n/);
    assert.match(run.err, /the proxy is degraded.*503 degraded \(failed extensions: sort-stabilization\.mjs\)/);
    assert.match(run.err, /finding   URL_DOUBLE_V1: baseUrl ends with \/v1/);
    const seen = readClientRecord(s.record)!;
    assert.equal(seen.env.ANTHROPIC_BASE_URL, gateway.textUrl, '/v1 removed from the messages base address');
    assert.equal(seen.env.ANTHROPIC_AUTH_TOKEN, key, 'the key kept in MSGAPI_AUTH_TOKEN reaches the client in the variable it reads');
    assert.equal(seen.env.MSGAPI_AUTH_TOKEN, undefined, 'exactly one credential variable');
    assert.equal(seen.env.ANTHROPIC_MODEL, 'demo-chat', 'the gateway serves no claude-… model: a served text model is set');
    assert.equal(seen.env.ANTHROPIC_DEFAULT_HAIKU_MODEL, 'demo-chat');
    assert.match(run.err, /model +demo-chat: automatic: the gateway lists no claude-… model/);
    const models = await fetch(`${seen.env.ANTHROPIC_BASE_URL}/v1/models`, { headers: { authorization: `Bearer ${seen.env.ANTHROPIC_AUTH_TOKEN}` } });
    assert.equal(models.status, 200);
    await models.arrayBuffer();
  });

  test('proxy healthy → proxy address, token, arguments and exit code; pinned settings backed up, cleaned, restored', async () => {
    const s = user(healthy, { ANTHROPIC_AUTH_TOKEN: key, ANTHROPIC_API_KEY: 'sk-vendor-key-that-must-go', ANTHROPIC_BASE_URL: 'https://stale.example.com', FAKE_CLIENT_EXIT: '7' });
    mkdirSync(join(s.project, '.claude'), { recursive: true });
    mkdirSync(join(s.home, '.claude'), { recursive: true });
    const projectFile = join(s.project, '.claude', 'settings.local.json');
    const userFile = join(s.home, '.claude', 'settings.json');
    const projectText = JSON.stringify({ env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', ANTHROPIC_AUTH_TOKEN: 'sk-old-pinned-token-0000', KEEP: 'me' }, permissions: { allow: ['Read'] } }, null, 2) + '\n';
    const userText = JSON.stringify({ model: 'big', hooks: { Stop: [] }, env: { ANTHROPIC_API_KEY: 'sk-vendor-pinned-1111' } }, null, 2) + '\n';
    writeFileSync(projectFile, projectText);
    writeFileSync(userFile, userText);
    chmodSync(userFile, 0o600);
    writeFileSync(join(s.home, '.bashrc'), `alias ll='ls -l'\nexport ANTHROPIC_BASE_URL=http://127.0.0.1:9801\n`);

    // In-process runs keep the test's working directory, so they name the project files explicitly.
    const inProcess = { ...s.env, GWCTL_SETTINGS_FILES: `~/.claude/settings.json:${s.project}/.claude/settings.json:${projectFile}` };
    const dry = await gwctl(['start', '--dry-run'], inProcess);
    assert.equal(dry.code, 0, dry.err);
    assert.match(dry.out, /would remove env\.ANTHROPIC_BASE_URL=http:\/\/127\.0\.0\.1:9, env\.ANTHROPIC_AUTH_TOKEN=sk-…0000/);
    const dryJson = await gwctlJson(['start', '--dry-run'], inProcess);
    assert.ok(dryJson.json.warnings.length >= 4, 'every pinned entry is a finding');
    assert.ok(dryJson.json.warnings.every((w: { cause: string }) => typeof w.cause === 'string' && w.cause.length > 0), 'each finding with a cause code');
    assert.ok(dryJson.json.warnings.some((w: { cause: string; message: string }) => w.cause === 'BASE_URL_PINNED_IN_SETTINGS' && /env\.ANTHROPIC_BASE_URL=http:\/\/127\.0\.0\.1:9/.test(w.message)));
    assert.equal(dryJson.json.model.id, 'demo-chat');
    assert.match(dry.out, /Nothing was changed \(--dry-run\)/);
    assert.equal(readFileSync(projectFile, 'utf8'), projectText);
    assert.equal(readClientRecord(s.record), undefined, 'a dry run launches nothing');

    const run = await gwctlProcess(['start', '--json', '--', '-p', 'say hi', '007'], { env: s.env, cwd: s.project }).done;
    assert.equal(run.code, 7, run.err);
    const seen = readClientRecord(s.record)!;
    assert.deepEqual(seen.argv, ['-p', 'say hi', '007']);
    assert.equal(seen.env.ANTHROPIC_BASE_URL, healthy.url);
    assert.equal(seen.env.ANTHROPIC_AUTH_TOKEN, key);
    assert.equal(seen.env.ANTHROPIC_API_KEY, undefined, 'exactly one credential');
    const doc = JSON.parse(run.out);
    assert.deepEqual([doc.route.kind, doc.route.baseUrl, doc.exitCode, doc.ok], ['proxy', healthy.url, 7, true]);
    assert.equal(doc.client.env.ANTHROPIC_AUTH_TOKEN, `sk-…${key.slice(-4)}`);
    assert.ok(doc.diagnosis, 'the client exited 7: a diagnosis of the route it used follows');
    assert.ok(Array.isArray(doc.diagnosis.checks) && doc.diagnosis.verdict.cause);
    assert.match(run.err, /claude exited with code 7; diagnosing what it saw on the proxy route/);
    assert.equal(doc.changes.changed.length, 3);
    assert.ok(!run.out.includes(key) && !run.err.includes(key), 'the key is never printed');
    assert.deepEqual(JSON.parse(readFileSync(projectFile, 'utf8')), { env: { KEEP: 'me' }, permissions: { allow: ['Read'] } });
    assert.deepEqual(JSON.parse(readFileSync(userFile, 'utf8')), { model: 'big', hooks: { Stop: [] }, env: {} });
    assert.equal(statSync(userFile).mode & 0o777, 0o600);
    assert.match(readFileSync(join(s.home, '.bashrc'), 'utf8'), /^alias ll='ls -l'\ntrue  # gwctl start removed a pinned ANTHROPIC_BASE_URL/);
    const backups = readdirSync(join(s.project, '.claude')).filter((f) => f.includes('.gwctl-backup-'));
    assert.equal(backups.length, 1);
    assert.equal(readFileSync(join(s.project, '.claude', backups[0]!), 'utf8'), projectText);
    assert.match(doc.changes.changed.find((c: { file: string }) => c.file === projectFile).backup, /settings\.local\.json\.gwctl-backup-\d{8}T\d{6}Z$/);
    assert.ok(!run.out.includes('sk-old-pinned-token-0000') && !run.out.includes('sk-vendor-pinned-1111'));

    const again = await gwctl(['start', '--dry-run', '--json'], inProcess);
    assert.deepEqual(JSON.parse(again.out).changes.changed, [], 'nothing pinned any more');

    const restore = await gwctlJson(['start', '--restore'], s.env);
    assert.equal(restore.code, 0, restore.err);
    assert.equal(restore.json.files.length, 3);
    assert.equal(readFileSync(projectFile, 'utf8'), projectText);
    assert.equal(readFileSync(userFile, 'utf8'), userText);
    assert.equal(readFileSync(join(s.home, '.bashrc'), 'utf8'), `alias ll='ls -l'\nexport ANTHROPIC_BASE_URL=http://127.0.0.1:9801\n`);
    assert.equal((await gwctl(['start', '--restore'], s.env)).out, 'gwctl start --restore: nothing to restore (no clean-up by gwctl start is on record)\n');
  });

  test('SIGTERM and SIGINT sent to gwctl reach the client', async () => {
    const cases = [
      ['SIGTERM', 143],
      ['SIGINT', 130],
    ] as const;
    await Promise.all(
      cases.map(async ([signal, code]) => {
        const s = user(healthy, { MSGAPI_AUTH_TOKEN: key, FAKE_CLIENT_WAIT: '1' });
        const started = gwctlProcess(['start'], { env: s.env, cwd: s.project });
        await waitFor(() => readClientRecord(s.record)?.waiting, { timeoutMs: 30_000, what: 'the client to start' });
        started.child.kill(signal);
        const run = await started.done;
        assert.equal(readClientRecord(s.record)!.signal, signal);
        assert.equal(run.code, code, run.err);
      }),
    );
  });
});

test('token missing → refused with exit 1 and the explanation; nothing changed or started', async () => {
  const s = user(degraded);
  mkdirSync(join(s.home, '.claude'), { recursive: true });
  const pinned = join(s.home, '.claude', 'settings.json');
  writeFileSync(pinned, '{"env":{"ANTHROPIC_AUTH_TOKEN":"sk-only-in-settings-2222"}}');
  const run = await gwctl(['start'], s.env);
  assert.equal(run.code, 1);
  assert.equal(run.out, '');
  assert.match(run.err, /refused \[TOKEN_MISSING_IN_SHELL\]/);
  assert.match(run.err, /ANTHROPIC_AUTH_TOKEN and MSGAPI_AUTH_TOKEN are not set in this shell/);
  assert.match(run.err, /answer 401, which is missing authentication, not a fault of the service or the upstream/);
  assert.doesNotMatch(run.err, /\bspec\b|rule \d/);
  assert.match(run.err, /pinned in ~\/\.claude\/settings\.json \(sk-…2222\)/);
  assert.match(run.err, /\$ read -rs ANTHROPIC_AUTH_TOKEN && export ANTHROPIC_AUTH_TOKEN/);
  assert.equal(readFileSync(pinned, 'utf8'), '{"env":{"ANTHROPIC_AUTH_TOKEN":"sk-only-in-settings-2222"}}');
  assert.equal(readClientRecord(s.record), undefined);
  const json = await gwctlJson(['start'], s.env);
  assert.equal(json.code, 1);
  assert.equal(json.json.ok, false);
  assert.equal(json.json.refused.cause, 'TOKEN_MISSING_IN_SHELL');
  assert.equal(json.json.route.kind, 'direct');
});

test('WSL with a Windows client → the proxy route is refused; dry run reports it', async () => {
  const s = user(healthy, { MSGAPI_AUTH_TOKEN: key, WSL_DISTRO_NAME: 'Ubuntu', GWCTL_CLIENT: 'claude.cmd' });
  installFakeClient(s.bin, 'claude.cmd');
  const run = await gwctlJson(['start', '--dry-run'], s.env);
  assert.equal(run.code, 0, run.err);
  assert.equal(run.json.route.kind, 'direct');
  assert.equal(run.json.route.proxy.state, 'not-probed');
  assert.match(run.json.route.reason, /Windows program.*must all run in the same WSL environment/);
  assert.equal(healthy.healthRequests > 0, true);
});

test('usage errors exit 2: unknown option, client not found (a dry run shows the plan with CLIENT_NOT_FOUND)', async () => {
  const s = user(healthy, { MSGAPI_AUTH_TOKEN: key });
  assert.equal((await gwctl(['start', '--bogus'], s.env)).code, 2);
  const missing = await gwctl(['start', '--client', 'no-such-client-xyz'], s.env);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /"no-such-client-xyz" is not found on PATH/);
  const dry = await gwctl(['start', '--client', 'no-such-client-xyz', '--dry-run', '--json'], s.env);
  assert.equal(dry.code, 0, dry.err);
  const plan = JSON.parse(dry.out);
  assert.equal(plan.client.path, null);
  assert.ok(plan.warnings.some((w: { cause: string }) => w.cause === 'CLIENT_NOT_FOUND'), dry.out);
  assert.equal(plan.route.kind, 'proxy');
  assert.ok(!existsSync(join(s.home, '.local', 'state', 'gwctl')), 'no state written');
});
