// `gwctl` with no arguments: the app on a terminal, otherwise the help and exit 2; `gwctl tui`
// without a terminal is a usage error; headless commands never load React or Ink.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { runCli } from '../../cli/run-cli.ts';
import { GWCTL_BIN, gwctlProcess, makeSandbox } from '../cli/gwctl-harness.ts';

const sandbox = makeSandbox();
const scratch = mkdtempSync(join(tmpdir(), 'gwctl-tui-cli-'));
after(() => {
  sandbox.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RECORDER = fileURLToPath(new URL('./fixtures/record-imports.mjs', import.meta.url));

async function run(argv: string[], isTerminal?: () => boolean) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => void (out += t), stderr: (t) => void (err += t), env: sandbox.env, readStdin: async () => '', isTerminal });
  return { code, out, err };
}

test('gwctl alone without a terminal prints the help (with the tui command) and exits 2', async () => {
  const result = await run([]);
  assert.equal(result.code, 2);
  assert.equal(result.out, '');
  assert.match(result.err, /Commands:/);
  assert.match(result.err, /gwctl tui +Open the interactive app/);
  assert.match(result.err, /gwctl: name a command \(the interactive app needs a terminal\)\./);
  const piped = await gwctlProcess([], { env: sandbox.env, cwd: sandbox.project }).done;
  assert.equal(piped.code, 2, 'as a real process with stdin not a terminal');
  assert.match(piped.err, /gwctl tui/);
});

test('gwctl tui without a terminal is a usage error, never a raw-mode crash', async () => {
  const result = await run(['tui'], () => false);
  assert.equal(result.code, 2);
  assert.match(result.err, /gwctl tui needs a terminal: standard input and output must both be a TTY\./);
  assert.match(result.err, /→ Run it in a terminal, or use the commands/);
});

function importsOf(args: string[], name: string): string[] {
  const file = join(scratch, `${name}.txt`);
  writeFileSync(file, '');
  const child = spawnSync(process.execPath, ['--import', RECORDER, ...args], { cwd: ROOT, env: { ...sandbox.env, RECORD_IMPORTS: file }, encoding: 'utf8' });
  assert.notEqual(child.status, null, child.stderr);
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

test('headless commands never load React or Ink; the TUI module does', () => {
  const headless = importsOf([GWCTL_BIN, 'explain', '401'], 'explain');
  // yargs is bundled into the build, so the control is that some bare specifier was recorded at all.
  assert.ok(headless.length > 0, `the recorder works: ${headless.join(', ')}`);
  assert.deepEqual(headless.filter((s) => /^(react|ink)(\/|$)/.test(s)), []);
  const tui = importsOf(['--import', 'tsx', '-e', "await import('./tui/run-tui.tsx')"], 'tui');
  assert.ok(tui.includes('ink') && tui.includes('react'), `control: ${tui.join(', ')}`);
});
