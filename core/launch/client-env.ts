// The environment the client starts with: the shell's, with the base address of the chosen route
// and exactly one credential variable (the other removed), plus loopback kept off HTTP proxies.
import type { ClientProfile } from '../config/client-profile.ts';
import { maskCredential } from '../doctor/mask-credential.ts';
import type { RouteDecision } from './route-decision.ts';

export interface ClientEnv {
  env: NodeJS.ProcessEnv;
  /** The variables gwctl set or removed, credentials masked; null = removed or left unset. */
  shown: Record<string, string | null>;
}

function withLoopback(list: string | undefined): string {
  const items = (list ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const host of ['127.0.0.1', 'localhost']) if (!items.includes(host)) items.push(host);
  return items.join(',');
}

export function buildClientEnv(shell: NodeJS.ProcessEnv, profile: ClientProfile, route: RouteDecision): ClientEnv {
  const env: NodeJS.ProcessEnv = { ...shell };
  const shown: Record<string, string | null> = {};
  if (route.baseUrl === null) delete env[profile.baseUrlVar];
  else env[profile.baseUrlVar] = route.baseUrl;
  shown[profile.baseUrlVar] = route.baseUrl;
  const keep = profile.auth === 'service' ? profile.tokenVar : profile.auth === 'vendor' ? profile.apiKeyVar : undefined;
  for (const variable of [profile.tokenVar, profile.apiKeyVar]) {
    if (variable === keep && env[variable]) {
      shown[variable] = maskCredential(env[variable]);
    } else {
      delete env[variable];
      shown[variable] = null;
    }
  }
  if (route.kind === 'proxy' && (env.HTTP_PROXY || env.HTTPS_PROXY || env.http_proxy || env.https_proxy)) {
    env.NO_PROXY = withLoopback(env.NO_PROXY ?? env.no_proxy);
    env.no_proxy = env.NO_PROXY;
    shown.NO_PROXY = env.NO_PROXY;
  }
  return { env, shown };
}
