// The environment the client starts with: the shell's, with the base address of the chosen route,
// exactly one credential variable (the one the client reads, filled from wherever the user keeps
// the key; every other credential variable removed), the chosen model in the client's model
// variables, and loopback kept off HTTP proxies.
import type { ClientProfile } from '../config/client-profile.ts';
import { maskCredential } from '../doctor/mask-credential.ts';
import { credentialVariables, findCredential } from './client-credential.ts';
import type { ModelChoice } from './model-choice.ts';
import type { RouteDecision } from './route-decision.ts';

export interface ClientEnv {
  env: NodeJS.ProcessEnv;
  /** The variables gwctl set or removed, credentials masked; null = removed or left unset. */
  shown: Record<string, string | null>;
  /** Vendor credentials found in the shell and removed (names only). */
  stripped: string[];
}

function withLoopback(list: string | undefined): string {
  const items = (list ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const host of ['127.0.0.1', 'localhost']) if (!items.includes(host)) items.push(host);
  return items.join(',');
}

export function buildClientEnv(shell: NodeJS.ProcessEnv, profile: ClientProfile, route: Pick<RouteDecision, 'kind' | 'baseUrl'>, model?: ModelChoice): ClientEnv {
  const env: NodeJS.ProcessEnv = { ...shell };
  const shown: Record<string, string | null> = {};
  if (route.baseUrl === null) delete env[profile.baseUrlVar];
  else env[profile.baseUrlVar] = route.baseUrl;
  shown[profile.baseUrlVar] = route.baseUrl;

  const credential = findCredential(profile, shell);
  for (const variable of credentialVariables(profile)) {
    // The client's two variables are always shown; a neutral one only when it was there to remove.
    const present = shell[variable] !== undefined;
    delete env[variable];
    if (present || variable === profile.tokenVar || variable === profile.apiKeyVar) shown[variable] = null;
  }
  if (credential?.value) {
    env[credential.clientVar] = credential.value;
    shown[credential.clientVar] = maskCredential(credential.value);
  }

  const stripped: string[] = [];
  for (const variable of profile.vendorVars ?? []) {
    if (shell[variable] === undefined) continue;
    if (variable === credential?.clientVar && credential.value) {
      // The client reads the gateway key in this vendor-named variable: the shell's value is replaced.
      if (credential.foundIn !== variable) stripped.push(variable);
      continue;
    }
    delete env[variable];
    shown[variable] = null;
    stripped.push(variable);
  }

  if (model?.id) {
    for (const variable of model.variables) {
      env[variable] = model.id;
      shown[variable] = model.id;
    }
  }

  if (route.kind === 'proxy' && (env.HTTP_PROXY || env.HTTPS_PROXY || env.http_proxy || env.https_proxy)) {
    env.NO_PROXY = withLoopback(env.NO_PROXY ?? env.no_proxy);
    env.no_proxy = env.NO_PROXY;
    shown.NO_PROXY = env.NO_PROXY;
  }
  return { env, shown, stripped };
}
