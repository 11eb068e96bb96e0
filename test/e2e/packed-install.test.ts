// gwctl as a user installs it: `npm pack` of this checkout, then `npm install -g --prefix <tmp>` of
// that tarball on a clean prefix (once per run: better-sqlite3 compiles from source on install),
// run on the lowest supported Node. The installed gwctl then serves on the embedded default, makes
// a key, verifies against itself, installs the proxy 4.2.1 tarball it carries with npm offline,
// and prints a systemd unit pointing at itself.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { installNode, lowestSupportedNode } from '../helpers/lowest-node.ts';
import { waitFor, within } from '../helpers/wait-for.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const INSTALL_TIMEOUT_MS = 20 * 60_000;

let work = '';
let prefix = '';
let nodeBin: string | null = null;
let env: NodeJS.ProcessEnv = {};
let tarball = '';
let install: { status: number | null; output: string } = { status: null, output: '' };
const children = new Set<ChildProcess>();

/** The runner's environment without anything that could steer gwctl, npm or a client. */
function cleanEnv(): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(GWCTL_|MSGAPI_|ANTHROPIC_|OPENAI_|XDG_|CACHE_FIX_|CLAUDE_|npm_|NODE_OPTIONS$|NODE_TEST_CONTEXT$)/i.test(name)) continue;
    out[name] = value;
  }
  return out;
}

function run(file: string, args: string[], extra: NodeJS.ProcessEnv = {}, timeout = 120_000) {
  const result = spawnSync(file, args, { cwd: join(work, 'home'), env: { ...env, ...extra }, encoding: 'utf8', timeout });
  return { code: result.status, out: result.stdout ?? '', err: `${result.stderr ?? ''}${result.error ? String(result.error) : ''}` };
}

const gwctlBin = () => join(prefix, 'bin', 'gwctl');

before(() => {
  work = mkdtempSync(join(tmpdir(), 'gwctl-packed-'));
  prefix = join(work, 'prefix');
  const home = join(work, 'home');
  for (const dir of [prefix, home, join(work, 'pack')]) mkdirSync(dir, { recursive: true });
  // npm keeps this machine's own config (e.g. where node's headers are for compiling) and cache,
  // read before HOME is moved; everything it installs goes to the temp prefix.
  const npmConfig = (key: string) => execFileSync('npm', ['config', 'get', key], { encoding: 'utf8', env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  const base: NodeJS.ProcessEnv = {
    ...cleanEnv(),
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    npm_config_userconfig: existsSync(join(homedir(), '.npmrc')) ? npmConfig('userconfig') : join(home, '.npmrc'),
    npm_config_cache: npmConfig('cache'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
  nodeBin = installNode(lowestSupportedNode(), join(work, 'node'), base);
  env = { ...base, PATH: [nodeBin, join(prefix, 'bin'), process.env.PATH ?? ''].filter(Boolean).join(':') };

  // The build is current: the test runner builds before it runs any test.
  const packed = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', join(work, 'pack')], { cwd: ROOT, env: base, encoding: 'utf8', timeout: 120_000, stdio: ['ignore', 'pipe', 'pipe'] });
  tarball = join(work, 'pack', (JSON.parse(packed.slice(packed.indexOf('['))) as Array<{ filename: string }>)[0]!.filename);
  const installed = spawnSync('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', tarball], { cwd: home, env, encoding: 'utf8', timeout: INSTALL_TIMEOUT_MS });
  install = { status: installed.status, output: `${installed.stdout}${installed.stderr}${installed.error ? String(installed.error) : ''}` };
});

after(() => {
  for (const child of children) child.kill('SIGKILL');
  if (work) rmSync(work, { recursive: true, force: true });
});

test('the gwctl tarball carries the build, the proxy 4.2.1 tarball, the web assets and the deploy files; no sources', () => {
  const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''));
  for (const file of ['bin/gwctl.js', 'dist/gwctl.js', 'dist/gwctl.js.map', 'proxy/dist/cache-fix-proxy-4.2.1.tgz', 'server/web/assets/app.css', 'dist/web/chat.js', 'dist/web/chat.js.map', 'server/deploy/gwctl.env', 'package.json']) {
    assert.ok(files.includes(file), `${file} is missing from the tarball: ${files.join(', ')}`);
  }
  assert.deepEqual(files.filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts')), []);
  assert.deepEqual(files.filter((f) => /^(node_modules|test|scripts|cli|core|tui)\//.test(f)), []);
});

test('npm install -g of the tarball works on a clean prefix, with no engine warning, on the lowest supported Node', () => {
  assert.equal(install.status, 0, install.output);
  assert.doesNotMatch(install.output, /EBADENGINE/);
  if (nodeBin) assert.equal(run('node', ['--version']).out.trim(), `v${lowestSupportedNode()}`);
  const version = run(gwctlBin(), ['--version']);
  assert.equal(version.code, 0, version.err);
  assert.equal(version.out, `${VERSION}\n`);
  // The dev-only tools stayed out.
  assert.equal(existsSync(join(prefix, 'lib', 'node_modules', 'gwctl', 'node_modules', 'tsx')), false);
});

test('the installed gwctl serves on the embedded default, makes a key, and verify passes against it', async (t) => {
  assert.equal(install.status, 0, 'installed');
  const serve = spawn(gwctlBin(), ['serve', '--host', '127.0.0.1', '--port', '0', '--image-port', '0', '--log-level', 'warn'], { cwd: join(work, 'home'), env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(serve);
  let out = '';
  let err = '';
  serve.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
  serve.stderr.setEncoding('utf8').on('data', (text: string) => (err += text));
  const exited = new Promise<number | null>((resolve) => serve.once('exit', (code) => resolve(code)));
  t.after(() => {
    serve.kill('SIGKILL');
  });
  await waitFor(() => /image API\s+http/.test(out) || serve.exitCode !== null, { timeoutMs: 120_000, what: 'gwctl serve to print its addresses' });
  assert.equal(serve.exitCode, null, `serve exited early\n${out}\n${err}`);
  if (nodeBin) assert.equal(readlinkSync(`/proc/${serve.pid}/exe`), realpathSync(join(nodeBin, 'node')));
  assert.match(out, /database\s+sqlite:\/\/\S+\/\.local\/share\/gwctl\/gateway\.db/);
  const textUrl = /text API\s+(http:\/\/\S+)/.exec(out)![1]!;

  const assets = await fetch(`${textUrl}/assets/app.css`);
  assert.equal(assets.status, 200, 'the web assets travel in the package');
  await assets.arrayBuffer();
  const script = await fetch(`${textUrl}/assets/js/chat.js`);
  assert.equal(script.status, 200, 'the bundled browser code travels in the package');
  assert.match(script.headers.get('content-type') ?? '', /javascript/);
  await script.arrayBuffer();

  const created = run(gwctlBin(), ['admin', 'key', 'create', '--user', 'admin', '--json']);
  assert.equal(created.code, 0, created.err);
  const key = (JSON.parse(created.out) as { key: string }).key;
  const verify = run(gwctlBin(), ['verify', '--base-url', textUrl, '--json'], { MSGAPI_AUTH_TOKEN: key });
  assert.equal(verify.code, 0, verify.out + verify.err);
  assert.equal((JSON.parse(verify.out) as { ok: boolean }).ok, true);

  serve.kill('SIGTERM');
  assert.equal(await within(exited, 60_000, 'gwctl serve to stop after SIGTERM'), 0, err);
});

test('gwctl proxy install installs the 4.2.1 tarball gwctl carries, with npm offline', () => {
  assert.equal(install.status, 0, 'installed');
  const proxyPrefix = join(work, 'proxy-prefix');
  mkdirSync(proxyPrefix, { recursive: true });
  const extra = { npm_config_prefix: proxyPrefix, npm_config_offline: 'true', PATH: `${join(proxyPrefix, 'bin')}:${env.PATH}` };
  const installed = run(gwctlBin(), ['proxy', 'install'], extra, 300_000);
  assert.equal(installed.code, 0, installed.out + installed.err);
  assert.ok(installed.out.includes(join(prefix, 'lib', 'node_modules', 'gwctl', 'proxy', 'dist', 'cache-fix-proxy-4.2.1.tgz')), installed.out);
  assert.match(installed.out, /OK: proxy 4\.2\.1 installed\./);
  const version = run(join(proxyPrefix, 'bin', 'cache-fix-proxy'), ['--version'], extra);
  assert.equal(version.code, 0, version.err);
  assert.equal(version.out.trim(), '4.2.1');
});

test('gwctl serve --print-systemd-unit points at the installed gwctl and node', () => {
  const unit = run(gwctlBin(), ['serve', '--print-systemd-unit']);
  assert.equal(unit.code, 0, unit.err);
  const node = nodeBin ? realpathSync(join(nodeBin, 'node')) : process.execPath;
  assert.ok(unit.out.includes(`ExecStart="${node}" "${join(realpathSync(prefix), 'lib', 'node_modules', 'gwctl', 'bin', 'gwctl.js')}" "serve"`), unit.out);
});
