// What every gateway benchmark does before it measures: a child environment with temporary
// HOME/XDG dirs (none of the caller's GWCTL_* settings), an operator account and one API key made
// with the CLI before the gateway starts (no first-start banner, the key in the database before
// the first request), and `gwctl serve` on loopback with a providers file.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Children, Started } from './children.ts';
import { SERVER_CPU, type Pinning } from './cpu-pinning.ts';

export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

/** Child environment: temporary HOME/XDG dirs, none of the caller's GWCTL_* settings. */
export function childEnv(tmp: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('GWCTL_')) env[name] = value;
  const home = join(tmp, 'home');
  for (const dir of ['.config', '.local/share', '.cache', '.local/state']) mkdirSync(join(home, dir), { recursive: true });
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local/state'),
    NODE_ENV: 'production',
  };
}

export interface GatewayChild extends Started {
  origin: string;
  key: string;
}

/** Creates the account and key, then starts `gwctl serve` (rate limit off) and waits for its address. */
export async function startGateway(
  children: Children,
  env: NodeJS.ProcessEnv,
  tmp: string,
  providers: unknown,
  options: { nodeArgs?: string[]; extraArgs?: string[]; pinning?: Pinning; name?: string; root?: string } = {},
): Promise<GatewayChild> {
  // Another built checkout (an A/B run against an earlier commit), or this one.
  const root = options.root ?? ROOT;
  const dataDir = join(tmp, 'data');
  const providersFile = join(tmp, 'providers.json');
  writeFileSync(providersFile, JSON.stringify(providers, null, 2));
  const gwctl = (args: string[], input?: string) => children.run(process.execPath, [join(root, 'bin/gwctl.js'), ...args], { cwd: root, env, input, timeoutMs: 30_000 });
  await gwctl(['admin', 'user', 'add', 'admin', '--admin', '--password-stdin', '--data-dir', dataDir], 'bench-admin-password\n');
  const key = (JSON.parse(await gwctl(['admin', 'key', 'create', '--user', 'admin', '--name', 'bench', '--json', '--data-dir', dataDir])) as { key: string }).key;
  const args = [
    ...(options.nodeArgs ?? []),
    join(root, 'bin/gwctl.js'),
    'serve',
    '--port', '0',
    '--image-port', '0',
    '--data-dir', dataDir,
    '--config', providersFile,
    '--rate-limit', '0',
    '--log-level', 'warn',
    ...(options.extraArgs ?? []),
  ];
  const command = options.pinning ? options.pinning.wrap(SERVER_CPU, process.execPath, args) : { command: process.execPath, args };
  const gateway = await children.start({
    name: options.name ?? 'gateway',
    ...command,
    cwd: root,
    env,
    ready: /text API\s+(http:\/\/127\.0\.0\.1:\d+)/,
    timeoutMs: 60_000,
    guard: true, // it does not watch its stdin
  });
  return { ...gateway, origin: gateway.match[1]!, key };
}
