// Picks where sign-ins are kept: the OS keychain when one is available, else a 0600 file in
// gwctl's state folder. GWCTL_CREDENTIAL_STORE=file|keychain forces one.
import { join } from 'node:path';
import { defaultStateDir } from '../paths.ts';
import { FileCredentialStore } from './file-credential-store.ts';
import { KeychainCredentialStore } from './keychain-credential-store.ts';
import type { CredentialStore } from './sign-in-record.ts';

export function signInFilePath(env: NodeJS.ProcessEnv): string {
  return join(defaultStateDir(env), 'sign-in.json');
}

export async function openCredentialStore(env: NodeJS.ProcessEnv): Promise<CredentialStore> {
  const wanted = env.GWCTL_CREDENTIAL_STORE;
  if (wanted !== undefined && wanted !== '' && wanted !== 'file' && wanted !== 'keychain') {
    throw new Error(`GWCTL_CREDENTIAL_STORE must be "file" or "keychain", got "${wanted.slice(0, 20)}".`);
  }
  if (wanted !== 'file') {
    const keychain = await KeychainCredentialStore.detect(env);
    if (keychain) return keychain;
    if (wanted === 'keychain') throw new Error('GWCTL_CREDENTIAL_STORE=keychain, but no keychain answers here (secret-tool with a D-Bus session on Linux, security on macOS).');
  }
  return new FileCredentialStore(signInFilePath(env));
}
