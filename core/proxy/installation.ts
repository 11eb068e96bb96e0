// Where the proxy package is installed and which version it is: the npm global prefix (where
// `npm install -g` puts it) and the `cache-fix-proxy` that PATH finds, which may differ. Versions are
// read from package.json; the documented 4.2.1 has no --version and would start a client instead.
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { resolveCommand } from '../launch/resolve-command.ts';
import type { CommandRunner } from './command-runner.ts';
import { PINNED_PROXY_VERSION, PROXY_BIN } from './package-spec.ts';
import { binNames, type PackageManifest } from './tarball-manifest.ts';

export interface InstalledPackage {
  name: string;
  version: string;
  packageDir: string;
  /** The command to run (`<prefix>/bin/cache-fix-proxy`, or the PATH entry). */
  binPath: string | null;
}

export interface ProxyInstallation {
  installed: boolean;
  /** The npm global prefix, when npm answered. */
  prefix: string | null;
  /** The copy in the npm global prefix (what install and upgrade change). */
  global: InstalledPackage | null;
  /** The copy PATH runs, when it is a different one (or the only one). */
  onPath: InstalledPackage | null;
  /** The copy gwctl works with: the global one, else the one on PATH. */
  active: InstalledPackage | null;
  pinned: boolean;
  observed: string;
}

export interface InstallationDeps {
  env: NodeJS.ProcessEnv;
  cwd: string;
  run: CommandRunner;
  signal?: AbortSignal;
}

function manifest(dir: string): PackageManifest | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageManifest;
  } catch {
    return undefined;
  }
}

function providesBin(m: PackageManifest | undefined): m is PackageManifest & { name: string; version: string } {
  return Boolean(m?.name && typeof m.version === 'string' && binNames(m).includes(PROXY_BIN));
}

/** The npm global prefix as npm sees it (npm_config_prefix honoured), or null. */
export async function npmGlobalPrefix(deps: InstallationDeps): Promise<string | null> {
  const fromEnv = deps.env.npm_config_prefix || deps.env.NPM_CONFIG_PREFIX;
  if (fromEnv) return fromEnv;
  const result = await deps.run({ command: 'npm', args: ['prefix', '-g'], env: deps.env, cwd: deps.cwd, timeoutMs: 30_000, signal: deps.signal });
  if (result.exitCode !== 0) return null;
  return result.stdout.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('/')).pop() ?? null;
}

function globalModules(prefix: string): string {
  return process.platform === 'win32' ? join(prefix, 'node_modules') : join(prefix, 'lib', 'node_modules');
}

function findInPrefix(prefix: string): InstalledPackage | null {
  const root = globalModules(prefix);
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return null;
  }
  const dirs = names.flatMap((n) => {
    if (!n.startsWith('@')) return [join(root, n)];
    try {
      return readdirSync(join(root, n)).map((m) => join(root, n, m));
    } catch {
      return [];
    }
  });
  for (const dir of dirs) {
    const m = manifest(dir);
    if (!providesBin(m)) continue;
    const bin = join(prefix, 'bin', PROXY_BIN);
    return { name: m.name, version: m.version, packageDir: dir, binPath: existsSync(bin) ? bin : null };
  }
  return null;
}

/** The copy of the proxy that PATH runs, with its version from package.json; null when none is on PATH. */
export function proxyOnPath(env: NodeJS.ProcessEnv, cwd: string): InstalledPackage | null {
  const bin = resolveCommand(PROXY_BIN, env, cwd);
  if (!bin) return null;
  let dir: string;
  try {
    dir = dirname(realpathSync(bin));
  } catch {
    return null;
  }
  for (let depth = 0; depth < 6; depth++) {
    const m = manifest(dir);
    if (providesBin(m)) return { name: m.name, version: m.version, packageDir: dir, binPath: bin };
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return { name: '?', version: 'unknown', packageDir: dirname(bin), binPath: bin };
}

export async function locateInstallation(deps: InstallationDeps): Promise<ProxyInstallation> {
  const prefix = await npmGlobalPrefix(deps);
  const global = prefix ? findInPrefix(prefix) : null;
  const path = proxyOnPath(deps.env, deps.cwd);
  const samePath = (a: InstalledPackage, b: InstalledPackage) => {
    try {
      return realpathSync(a.packageDir) === realpathSync(b.packageDir);
    } catch {
      return a.packageDir === b.packageDir;
    }
  };
  const onPath = path && (!global || !samePath(global, path)) ? path : null;
  const active = global ?? onPath;
  const pinned = active?.version === PINNED_PROXY_VERSION;
  let observed: string;
  if (!active) observed = `not installed (no ${PROXY_BIN} in the npm global prefix ${prefix ?? '(npm did not answer)'} or on PATH)`;
  else {
    observed = `${active.name}@${active.version} in ${active.packageDir}${pinned ? '' : ` — not ${PINNED_PROXY_VERSION}, the only documented version`}`;
    if (global && onPath) observed += `; PATH runs another copy: ${onPath.binPath} (${onPath.name}@${onPath.version})`;
    else if (global && !global.binPath) observed += `; ${join(prefix!, 'bin', PROXY_BIN)} is missing`;
  }
  return { installed: Boolean(active), prefix, global, onPath, active, pinned, observed };
}
