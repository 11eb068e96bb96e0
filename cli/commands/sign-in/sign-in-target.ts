// The gateway a sign-in command talks to (the baseUrl setting), the credential store, and sign-in
// failures as CLI errors.
import { join } from 'node:path';
import type { ResolvedSettings } from '../../../core/config/resolve-settings.ts';
import { openCredentialStore } from '../../../core/sign-in/credential-store.ts';
import { SignInError } from '../../../core/sign-in/gateway-oauth-client.ts';
import { gatewayKey, type CredentialStore } from '../../../core/sign-in/sign-in-record.ts';
import { defaultStateDir } from '../../../core/paths.ts';
import { CliError, EXIT } from '../../cli-context.ts';

export function signInGateway(settings: ResolvedSettings): string {
  const baseUrl = settings.baseUrl.value;
  if (typeof baseUrl !== 'string' || baseUrl === '') {
    throw new CliError('No gateway address is set.', 'Pass --base-url URL, or set it once: `gwctl config set baseUrl URL`.', EXIT.usage);
  }
  return gatewayKey(baseUrl);
}

export async function signInStore(env: NodeJS.ProcessEnv): Promise<CredentialStore> {
  try {
    return await openCredentialStore(env);
  } catch (error) {
    throw new CliError((error as Error).message, 'Unset GWCTL_CREDENTIAL_STORE, or set it to file or keychain.', EXIT.usage);
  }
}

export function refreshLockPath(env: NodeJS.ProcessEnv): string {
  return join(defaultStateDir(env), 'sign-in.lock');
}

/** Runs sign-in work; its own failures become CLI errors with their remedy. */
export async function asCliError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SignInError) throw new CliError(error.message, error.remedy, EXIT.failed);
    throw error;
  }
}
