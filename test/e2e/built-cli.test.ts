// The built gwctl as a user runs it (bin/gwctl.js -> dist/): headless commands load only what they
// need (no React/Ink, no fastify, no database driver, no TUI or server chunk), `--version` loads
// nothing but the entry file, and stack traces name the TypeScript lines through the source maps.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { GWCTL_BIN, makeSandbox } from '../cli/gwctl-harness.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIST = pathToFileURL(join(ROOT, 'dist')).href;
const RECORDER = fileURLToPath(new URL('../fixtures/record-loads/record-loads.mjs', import.meta.url));
const HEAVY = ['react', 'ink', 'fastify', '@fastify/cookie', '@fastify/static', '@fastify/formbody', 'better-sqlite3', 'kysely', 'pg', 'pino', 'execa'];

const sandbox = makeSandbox();
const scratch = mkdtempSync(join(tmpdir(), 'gwctl-built-cli-'));
after(() => {
  sandbox.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

interface Loads {
  code: number | null;
  stderr: string;
  /** Packages loaded from node_modules (by name). */
  packages: Set<string>;
  /** Built files loaded from dist/ (chunk names without the hash). */
  chunks: Set<string>;
}

let runs = 0;
function loadsOf(args: string[], env: NodeJS.ProcessEnv = {}): Loads {
  const file = join(scratch, `loads-${(runs += 1)}.txt`);
  writeFileSync(file, '');
  const child = spawnSync(process.execPath, ['--import', RECORDER, GWCTL_BIN, ...args], {
    cwd: sandbox.project,
    env: { ...sandbox.env, ...env, RECORD_LOADS: file },
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.notEqual(child.status, null, `gwctl ${args.join(' ')} did not finish: ${child.stderr}`);
  const urls = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const packages = new Set<string>();
  const chunks = new Set<string>();
  for (const url of urls) {
    const inModules = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (inModules) packages.add(inModules[1]!);
    else if (url.startsWith(`${DIST}/`)) chunks.add(url.slice(DIST.length + 1).replace(/-[A-Z0-9]{8}\.js$/, '').replace(/\.js$/, ''));
  }
  return { code: child.status, stderr: child.stderr, packages, chunks };
}

function assertLight(run: Loads, what: string): void {
  assert.deepEqual(HEAVY.filter((name) => run.packages.has(name)), [], `${what} loaded heavy packages: ${[...run.packages].join(', ')}`);
  for (const chunk of ['run-tui', 'production-deps', 'start', 'store']) assert.ok(!run.chunks.has(chunk), `${what} loaded the ${chunk} chunk: ${[...run.chunks].join(', ')}`);
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('gwctl --version loads the entry file (and a small shared chunk), no package and no command tree', () => {
  const run = loadsOf(['--version']);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual([...run.chunks].filter((name) => name !== 'gwctl' && name !== 'chunk'), []);
  assert.deepEqual([...run.packages], []);
});

test('explain, config and verify load the command tree but no UI, server or database code', async () => {
  const explain = loadsOf(['explain', '404']);
  assert.equal(explain.code, 0, explain.stderr);
  assert.ok(explain.chunks.has('run-cli'), `control: the command tree loaded (${[...explain.chunks].join(', ')})`);
  assertLight(explain, 'explain');

  const config = loadsOf(['config', 'list']);
  assert.equal(config.code, 0, config.stderr);
  assertLight(config, 'config list');

  // Nothing listens on this port: verify reports the address as unreachable (exit 1) after a request.
  const verify = loadsOf(['verify', '--base-url', `http://127.0.0.1:${await closedPort()}`], { MSGAPI_AUTH_TOKEN: 'sk-test-built-cli-0001' });
  assert.equal(verify.code, 1, verify.stderr);
  assert.ok(verify.packages.has('undici'), `control: verify made its request with undici (${[...verify.packages].join(', ')})`);
  assertLight(verify, 'verify');
});

test('stack traces of the built code name the TypeScript source lines', () => {
  // A settings folder that cannot be created (its parent is a file) fails inside the settings code.
  const notADirectory = join(scratch, 'a-file');
  writeFileSync(notADirectory, '');
  const child = spawnSync(process.execPath, [GWCTL_BIN, 'config', 'set', 'baseUrl', 'http://127.0.0.1:9'], {
    cwd: sandbox.project,
    env: { ...sandbox.env, XDG_CONFIG_HOME: notADirectory },
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.notEqual(child.status, 0);
  assert.match(child.stderr, /ENOTDIR/);
  assert.match(child.stderr, /\(\S*\/core\/config\/[a-z-]+\.ts:\d+:\d+\)/, child.stderr);
  assert.doesNotMatch(child.stderr, /\/dist\/[^/\s]+\.js:\d+/, child.stderr);
});
