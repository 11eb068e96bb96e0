// `gwctl start` with a sign-in instead of a key: when the shell holds no key for the client and
// `gwctl login` signed in to the gateway, the client gets a fresh short-lived access token in its
// token variable, in its environment only (never a file).
import type { ResolvedSettings } from '../../../core/config/resolve-settings.ts';
import { clientProfile } from '../../../core/config/client-profile.ts';
import { findCredential } from '../../../core/launch/client-credential.ts';
import { openCredentialStore } from '../../../core/sign-in/credential-store.ts';
import { freshAccessToken } from '../../../core/sign-in/fresh-access-token.ts';
import { gatewayKey } from '../../../core/sign-in/sign-in-record.ts';
import { asCliError, refreshLockPath } from './sign-in-target.ts';

export async function withSignInCredential(settings: ResolvedSettings, env: NodeJS.ProcessEnv, cwd: string, note: (text: string) => void): Promise<NodeJS.ProcessEnv> {
  const baseUrl = settings.baseUrl.value;
  if (typeof baseUrl !== 'string' || baseUrl === '') return env;
  const profile = clientProfile(settings, env, cwd);
  if (profile.auth !== 'service' || findCredential(profile, env)?.value) return env;
  let store;
  try {
    store = await openCredentialStore(env);
  } catch {
    return env;
  }
  const gateway = gatewayKey(baseUrl);
  if (!(await store.read(gateway))) return env;
  const record = await asCliError(() => freshAccessToken(gateway, { store, lockPath: refreshLockPath(env) }));
  note(`gwctl: no key in this shell; using your sign-in to ${gateway} (gwctl login): the client gets a short-lived access token, valid until ${new Date(record.accessExpiresAt).toISOString()}.\n`);
  return { ...env, [profile.tokenVar]: record.accessToken };
}
