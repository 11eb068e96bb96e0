import type { Env } from '../config/env.ts';
import { parsePort } from '../config/proxy-config.ts';

export const SYSTEMD_UNIT = 'cache-fix-proxy.service';
export const HEALTHCHECK_SERVICE = 'cache-fix-proxy-healthcheck.service';
export const HEALTHCHECK_TIMER = 'cache-fix-proxy-healthcheck.timer';
// Kept identical to 4.2.1 so an existing agent is found and replaced, not duplicated.
export const LAUNCHD_LABEL = 'com.cnighswonger.cache-fix-proxy';

export interface ServiceSettings {
  nodePath: string;
  scriptPath: string;
  workingDirectory: string;
  port: number;
  /** Environment captured at install time, in a fixed order. */
  environment: Array<[string, string]>;
}

// Captured beyond 4.2.1's list: the proxy variables and the timeout, whose loss sent corporate
// users' services around their proxy, and the bounds on what an upstream answer may hold.
const OPTIONAL_VARS = [
  'CACHE_FIX_PROXY_UPSTREAM',
  'CACHE_FIX_PROXY_TIMEOUT',
  'CACHE_FIX_PROXY_MAX_EVENT_BYTES',
  'CACHE_FIX_PROXY_MAX_COLLECT_BYTES',
  'CACHE_FIX_PROXY_CA_FILE',
  'CACHE_FIX_PROXY_REJECT_UNAUTHORIZED',
  'CACHE_FIX_DEBUG',
  'CACHE_FIX_DEBUG_LOG',
  'HTTPS_PROXY',
  'HTTP_PROXY',
  'NO_PROXY',
];

export function captureServiceSettings(env: Env, paths: { nodePath: string; scriptPath: string; workingDirectory: string }): ServiceSettings {
  const port = parsePort(env.CACHE_FIX_PROXY_PORT, false);
  const environment: Array<[string, string]> = [['CACHE_FIX_PROXY_PORT', String(port)]];
  for (const name of OPTIONAL_VARS) {
    const value = env[name] ?? env[name.toLowerCase()];
    if (value !== undefined && value !== '') environment.push([name, value]);
  }
  if (env.CACHE_FIX_HOT_RELOAD === 'on') environment.push(['CACHE_FIX_HOT_RELOAD', 'on']);
  return { ...paths, port, environment };
}
