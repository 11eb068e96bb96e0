// What `gwctl start` will set in the client's environment, described without touching the network
// (for `gwctl config list` and the TUI): each variable, the value or how it is chosen, and why.
import { CLIENT_PROFILES, type ProfileName } from '../config/client-profiles.ts';
import { clientProfile } from '../config/client-profile.ts';
import type { ResolvedSettings, SettingSource } from '../config/resolve-settings.ts';
import { SettingError } from '../config/setting-error.ts';
import { maskCredential } from '../doctor/mask-credential.ts';
import { credentialVariables, findCredential } from './client-credential.ts';

export interface PlannedVariable {
  name: string;
  /** The value, or how it is chosen at start. */
  value: string;
  note: string;
}

export interface StartVariables {
  profile: { name: ProfileName; describe: string; source: SettingSource; origin: string | null };
  command: string | null;
  variables: PlannedVariable[];
  /** Why the variables cannot be listed (e.g. the custom profile without client.command). */
  problem: { message: string; remedy?: string } | null;
}

export function startVariables(settings: ResolvedSettings, env: NodeJS.ProcessEnv, cwd: string): StartVariables {
  const setting = settings['client.profile'];
  const name = setting.value as ProfileName;
  const head = { profile: { name, describe: CLIENT_PROFILES[name].describe, source: setting.source, origin: setting.origin }, command: settings['client.command'].value as string | null };
  let profile;
  try {
    profile = clientProfile(settings, env, cwd);
  } catch (error) {
    if (error instanceof SettingError) return { ...head, variables: [], problem: { message: error.message, remedy: error.remedy } };
    throw error;
  }
  const proxyUrl = (settings.proxyUrl.value as string).replace(/(\/v1)+$/, '');
  const base = settings.baseUrl.value as string | null;
  const root = base ? base.replace(/(\/v1)+$/, '') : '(baseUrl not set)';
  const direct = profile.auth === 'service' ? root : "left unset (the client's default upstream)";
  const variables: PlannedVariable[] = [{ name: profile.baseUrlVar, value: `${proxyUrl} | ${direct}`, note: 'the proxy when its /health answers 200 {"status":"ok"}, else direct' }];

  const credential = findCredential(profile, env);
  if (credential) {
    const now = credential.value ? `now from ${credential.foundIn} (${maskCredential(credential.value)})` : 'none is set now: start refuses';
    variables.push({ name: credential.clientVar, value: `the key from ${credential.sources.join(', else ')}`, note: `${now}; the only credential the client gets` });
  }
  for (const variable of credentialVariables(profile).filter((v) => v !== credential?.clientVar)) {
    if (variable === profile.tokenVar || variable === profile.apiKeyVar || env[variable] !== undefined) variables.push({ name: variable, value: 'removed', note: 'exactly one credential variable reaches the client' });
  }

  const modelVars = [profile.modelVar, ...profile.backgroundModelVars];
  const exported = env[profile.modelVar];
  let model: { value: string; note: string };
  if (profile.model) model = { value: profile.model.id, note: `setting client.model (${profile.model.origin})` };
  else if (exported) model = { value: 'left as it is', note: `${profile.modelVar}=${exported} is set in this shell` };
  else if (profile.auth === 'service' && profile.ownModelPrefix) {
    const own = profile.clientDefaultModel ? `does not serve ${profile.clientDefaultModel} (the client's default)` : `lists no ${profile.ownModelPrefix}… model (the client's own)`;
    model = { value: 'automatic', note: `a model the gateway serves (${profile.ownModelPrefix}… first, never an image model), when it ${own}; choose one with gwctl config set client.model <id>` };
  } else model = { value: 'not set', note: profile.auth === 'service' ? `the ${profile.name} profile picks no model by itself; set client.model to choose one` : "the vendor serves the client's own models" };
  for (const variable of modelVars) {
    const own = variable !== profile.modelVar && env[variable];
    variables.push(own ? { name: variable, value: 'left as it is', note: `set in this shell (${env[variable]})` } : { name: variable, value: model.value, note: variable === profile.modelVar ? model.note : `same as ${profile.modelVar}` });
  }
  variables.push({ name: 'NO_PROXY', value: '+127.0.0.1,localhost', note: 'only on the proxy route when an HTTP proxy variable is set, so loopback is not sent through it' });
  return { ...head, variables, problem: null };
}
