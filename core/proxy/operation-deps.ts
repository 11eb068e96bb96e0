// Everything the proxy operations touch outside the process, with the real implementations as
// defaults: settings, environment, HTTP, the command runner (npm, cache-fix-proxy, systemctl,
// launchctl, the client), clock, platform. Tests replace any of them.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { HttpGet } from '../client/http-get.ts';
import { HEALTH_TIMEOUT_MS } from '../client/proxy-client.ts';
import { undiciGet } from '../client/undici-http-get.ts';
import { clientProfile, type ClientProfile } from '../config/client-profile.ts';
import { resolveSettings, type ResolvedSettings } from '../config/resolve-settings.ts';
import { SettingsFile } from '../config/settings-file.ts';
import { spawnRunner, type CommandRunner } from './command-runner.ts';
import { procfsProxyEnvironment, type ProxyEnvironmentReader } from './running-proxy-environment.ts';
import { servicePlatform, Supervisor, supervisorKind } from './supervisor.ts';

export interface ProxyOperationDeps {
  env: NodeJS.ProcessEnv;
  cwd: string;
  settings: ResolvedSettings;
  http: HttpGet;
  run: CommandRunner;
  now: () => Date;
  /** process.platform; the service kind also honours CACHE_FIX_SERVICE_PLATFORM. */
  platform: NodeJS.Platform;
  uid: number;
  /** /proc, for the port check on Linux. */
  procRoot: string;
  /** /proc/version reader, for WSL detection. */
  procVersion?: () => string;
  /** Bound for GET /health probes. */
  probeTimeoutMs: number;
  /** How long to wait for /health to turn 200 after a restart. */
  healthWaitMs: number;
  /** How long a client run (acceptance, regression) may take. */
  clientTimeoutMs: number;
  /** How long to wait for the proxy's observation files after a session. */
  observationWaitMs: number;
}

export function defaultDeps(partial: Partial<ProxyOperationDeps> = {}): ProxyOperationDeps {
  const env = partial.env ?? process.env;
  return {
    env,
    cwd: partial.cwd ?? process.cwd(),
    settings: partial.settings ?? resolveSettings({ file: new SettingsFile(env), env }),
    http: partial.http ?? undiciGet,
    run: partial.run ?? spawnRunner,
    now: partial.now ?? (() => new Date()),
    platform: partial.platform ?? process.platform,
    uid: partial.uid ?? (typeof process.getuid === 'function' ? process.getuid() : 0),
    procRoot: partial.procRoot ?? '/proc',
    procVersion: partial.procVersion,
    probeTimeoutMs: partial.probeTimeoutMs ?? HEALTH_TIMEOUT_MS,
    healthWaitMs: partial.healthWaitMs ?? 15_000,
    clientTimeoutMs: partial.clientTimeoutMs ?? 120_000,
    observationWaitMs: partial.observationWaitMs ?? 5_000,
  };
}

/** Reads the running proxy's process environment from deps.procRoot on Linux; none elsewhere. */
export function proxyEnvironmentOf(deps: ProxyOperationDeps): ProxyEnvironmentReader | undefined {
  return deps.platform === 'linux' ? procfsProxyEnvironment(deps.procRoot) : undefined;
}

export function profileOf(deps: ProxyOperationDeps): ClientProfile {
  return clientProfile(deps.settings, deps.env, deps.cwd);
}

export function proxyUrlOf(deps: ProxyOperationDeps): string {
  return (deps.settings.proxyUrl.value as string).replace(/\/+$/, '').replace(/(\/v1)+$/, '');
}

export function supervisorOf(deps: ProxyOperationDeps): Supervisor | null {
  const kind = supervisorKind(servicePlatform(deps.env, deps.platform));
  return kind ? new Supervisor(kind, deps.env, deps.uid) : null;
}

/** The package (name, version) a script path belongs to, e.g. the one a service definition runs. */
export function packageOfScript(script: string | undefined): { name: string; version: string; packageDir: string } | null {
  if (!script) return null;
  let dir = dirname(script);
  for (let depth = 0; depth < 6; depth++) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        const m = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
        if (m.name && m.version) return { name: m.name, version: m.version, packageDir: dir };
      } catch {
        return null;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}
