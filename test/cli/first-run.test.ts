// First run in a terminal: commands printed for this installation (checkout: npm run -s gwctl --;
// installed: gwctl), the first admin password in a frame, readable log lines, one time format,
// `config set baseUrl …/v1` warned about, and serve --help listing the log format.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { formatTime } from '../../core/format-time.ts';
import { gwctlInvocation } from '../../cli/gwctl-invocation.ts';
import { framedBlock } from '../../cli/output/framed-block.ts';
import { prettyLine } from '../../server/pretty-log.ts';
import { gwctl, makeSandbox } from './gwctl-harness.ts';

const s = makeSandbox();
const dirs = mkdtempSync(join(tmpdir(), 'gwctl-inv-'));
after(() => {
  s.cleanup();
  rmSync(dirs, { recursive: true, force: true });
});

test('the commands printed are those that work here: npm run -s gwctl -- in a checkout, gwctl when installed', () => {
  const checkout = join(dirs, 'checkout');
  mkdirSync(join(checkout, '.git'), { recursive: true });
  const worktree = join(dirs, 'worktree');
  mkdirSync(worktree);
  writeFileSync(join(worktree, '.git'), 'gitdir: /elsewhere\n');
  const installed = join(dirs, 'lib', 'node_modules', 'gwctl');
  mkdirSync(installed, { recursive: true });
  assert.equal(gwctlInvocation({}, checkout), 'npm run -s gwctl --');
  assert.equal(gwctlInvocation({}, worktree), 'npm run -s gwctl --');
  assert.equal(gwctlInvocation({}, installed), 'gwctl');
  assert.equal(gwctlInvocation({ npm_lifecycle_event: 'start' }, installed), 'npm run -s gwctl --');
});

test('the first admin password stands in a frame, every line the same width', () => {
  const block = framedBlock(['First start: created the operator account "admin".', 'Password (shown once, store it now):  abc', '  gwctl admin user passwd admin']);
  const lines = block.split('\n').filter(Boolean);
  assert.match(lines[0]!, /^\+-+\+$/);
  assert.equal(new Set(lines.map((l) => l.length)).size, 1);
  assert.ok(block.startsWith('\n') && block.endsWith('\n\n'), 'blank lines set it apart from the logs');
});

test('pretty log lines: time in the one format, level, message, fields; not-JSON lines pass through', () => {
  const line = prettyLine(JSON.stringify({ level: 30, time: Date.UTC(2026, 10, 27, 4, 42, 10), pid: 1, hostname: 'h', msg: 'request', method: 'GET', path: '/v1/models', status: 200, ms: 3 }));
  assert.equal(line, '2026-11-27 04:42:10 UTC INFO  request method=GET path=/v1/models status=200 ms=3\n');
  const error = prettyLine(JSON.stringify({ level: 50, time: 0, msg: 'request failed', err: { message: 'boom', stack: 'Error: boom\n    at x (y.ts:1:1)' } }));
  assert.match(error, /^1970-01-01 00:00:00 UTC ERROR request failed err=boom\n {4}at x/);
  assert.equal(prettyLine('plain text'), 'plain text\n');
  assert.equal(formatTime('2026-11-27T04:42:10.123Z'), '2026-11-27 04:42 UTC');
  assert.equal(formatTime(null), 'never');
});

test('config set baseUrl …/v1 is stored but warned about, with the rule per client kind and the fix', async () => {
  const set = await gwctl(['config', 'set', 'baseUrl', 'https://gw.example.com/v1'], s.env);
  assert.equal(set.code, 0, set.err);
  assert.match(set.err, /warning: baseUrl ends with \/v1/);
  assert.match(set.err, /chat-completions and image clients use https:\/\/gw\.example\.com\/v1; messages-protocol clients use https:\/\/gw\.example\.com /);
  assert.match(set.err, /gwctl config set baseUrl https:\/\/gw\.example\.com\n/);
  const plain = await gwctl(['config', 'set', 'baseUrl', 'https://gw.example.com'], s.env);
  assert.doesNotMatch(plain.err, /warning/);
});

test('serve --help lists the log format', async () => {
  // yargs prints help through console.log.
  const lines: string[] = [];
  const original = console.log;
  console.log = (...parts: unknown[]) => void lines.push(parts.join(' '));
  try {
    assert.equal((await gwctl(['serve', '--help'], s.env)).code, 0);
  } finally {
    console.log = original;
  }
  const text = lines.join('\n').replace(/\s+/g, ' ');
  assert.match(text, /--log-format/);
  assert.match(text, /pretty when stderr is a terminal, json otherwise/);
});
