// Golden verdicts of chained faults: each ends in one root cause with its fix, and every other
// failing check agrees with it (same cause code), so support reads one answer, not several.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BASE, GATEWAY, KEY, PROXY, answer, diagnose, json } from './diagnose-harness.ts';

const unit = (upstream: string) => ({ '.config/systemd/user/cache-fix-proxy.service': `[Service]\nEnvironment=CACHE_FIX_PROXY_PORT=9801\nEnvironment=CACHE_FIX_PROXY_UPSTREAM=${upstream}\nExecStart=/usr/bin/node /x server\n` });
const failing = (report: { checks: Array<{ id: string; status: string; cause: string | null }> }) => report.checks.filter((c) => c.status === 'fail').map((c) => `${c.id} ${c.cause}`);

test('proxy → an upstream that does not answer → 502: one verdict, set the upstream and reinstall the definition', async () => {
  // The proxy answers the 502 itself: no gateway request id, no provider.
  const dead = answer(502, { error: 'upstream connect ECONNREFUSED 127.0.0.1:1' }, {});
  const { report } = await diagnose({ status: 502, files: unit(BASE), env: { ANTHROPIC_BASE_URL: PROXY, ANTHROPIC_AUTH_TOKEN: KEY }, messages: dead });
  assert.deepEqual(
    { cause: report.verdict.cause, check: report.verdict.check, commands: report.verdict.commands, evidence: report.verdict.evidence },
    {
      cause: 'PROXY_FAULT',
      check: 'proxy.upstream',
      commands: [
        `export CACHE_FIX_PROXY_UPSTREAM=${BASE}`,
        'cache-fix-proxy install-service --force',
        'systemctl --user daemon-reload && systemctl --user restart cache-fix-proxy',
        `ANTHROPIC_BASE_URL=${BASE} claude   # direct, until the proxy is fixed`,
      ],
      evidence: ['messages.request PROXY_FAULT', 'fault.locate PROXY_FAULT', 'status.classify PROXY_FAULT', 'client.found CLIENT_NOT_FOUND'],
    },
  );
  assert.match(report.verdict.observed, /got 502 from the proxy itself, not from the service: it forwards to an address that does not answer, although the definition names https:\/\/gw\.example\.com: the running proxy was started with other settings/);
  assert.match(report.verdict.remedy!, /Set CACHE_FIX_PROXY_UPSTREAM to https:\/\/gw\.example\.com and reinstall its service definition with `cache-fix-proxy install-service --force`, then restart it/);
  assert.match(report.verdict.remedy!, /A restart alone keeps the wrong address/);
  assert.deepEqual(failing(report), ['proxy.upstream PROXY_FAULT', 'messages.request PROXY_FAULT', 'fault.locate PROXY_FAULT', 'status.classify PROXY_FAULT'], 'no check says UPSTREAM_FAULT');
  for (const c of report.checks.filter((c) => c.status === 'fail')) assert.equal(c.remedy, report.verdict.remedy, `${c.id} gives the same fix`);
});

test('key deleted → 401 through the proxy: KEY_REJECTED, a new key from /keys, the proxy not blamed', async () => {
  const deleted = answer(401, { type: 'error', error: { type: 'authentication_error', message: 'The API key is not valid.' } }, GATEWAY);
  const { report, by } = await diagnose({
    status: 401,
    files: unit(BASE),
    env: { ANTHROPIC_BASE_URL: PROXY, ANTHROPIC_AUTH_TOKEN: KEY },
    get: { [`${BASE}/v1/models`]: json(401, { error: { code: 'invalid_api_key', message: 'The API key is not valid.' } }) },
    messages: deleted,
  });
  assert.deepEqual(
    { cause: report.verdict.cause, check: report.verdict.check, commands: report.verdict.commands, evidence: report.verdict.evidence },
    {
      cause: 'KEY_REJECTED',
      check: 'messages.request',
      commands: [`read -rs ANTHROPIC_AUTH_TOKEN && export ANTHROPIC_AUTH_TOKEN   # paste the key (a new one from ${BASE}/keys if it was deleted)`, 'gwctl verify'],
      evidence: ['direct.request KEY_REJECTED', 'status.classify KEY_REJECTED', 'client.found CLIENT_NOT_FOUND'],
    },
  );
  assert.match(report.verdict.remedy!, /^A deleted key is gone for good: create a new one on https:\/\/gw\.example\.com\/keys/);
  assert.match(report.verdict.observed, /through the proxy.*→ 401.*answered by the service at https:\/\/gw\.example\.com itself, through the proxy/);
  assert.equal(by['proxy.upstream'].status, 'pass', 'the service answered through the proxy: its upstream is right');
});

test('settings pin → wrong route: the pin is the root cause, the wrong base address its evidence', async () => {
  const settings = { '.claude/settings.json': JSON.stringify({ env: { ANTHROPIC_BASE_URL: 'https://old.example.com' } }) };
  const { report } = await diagnose({ status: 404, files: { ...settings, ...unit(BASE) }, env: { ANTHROPIC_BASE_URL: PROXY, ANTHROPIC_AUTH_TOKEN: KEY } });
  assert.deepEqual(
    { cause: report.verdict.cause, check: report.verdict.check, commands: report.verdict.commands, evidence: report.verdict.evidence },
    {
      cause: 'BASE_URL_PINNED_IN_SETTINGS',
      check: 'client.settings-pins',
      commands: ['gwctl start --dry-run   # lists what would change', 'gwctl start', 'gwctl start --restore   # undo'],
      evidence: ['client.base-url BASE_URL_NOT_PROXY', 'status.classify BASE_URL_PINNED_IN_SETTINGS', 'client.found CLIENT_NOT_FOUND'],
    },
  );
  assert.match(report.verdict.observed, /~\/\.claude\/settings\.json env\.ANTHROPIC_BASE_URL=https:\/\/old\.example\.com/);
  assert.match(report.verdict.remedy!, /a settings-file env block wins over the shell/);
});
