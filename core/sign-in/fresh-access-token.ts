// `gwctl token`: the stored access token while it has more than five minutes left, else a refresh
// (the refresh token rotates, and the new pair is stored). Several processes may ask at once (a
// client's token helper, `gwctl start`): a lock file makes them refresh one at a time, since a
// refresh token used twice ends the sign-in.
import { closeSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { requestTokens, SignInError } from './gateway-oauth-client.ts';
import { gatewayKey, type CredentialStore, type SignInRecord } from './sign-in-record.ts';

/** What Claude Code also uses: refresh when less than this is left. */
export const REFRESH_MARGIN_MS = 5 * 60_000;
const LOCK_WAIT_MS = 30_000;
const STALE_LOCK_MS = 60_000;

export interface FreshTokenDeps {
  store: CredentialStore;
  /** The lock file of refreshes. */
  lockPath: string;
  now?: () => number;
}

export const notSignedIn = (gateway: string) => new SignInError(`Not signed in to ${gateway}.`, `Run \`gwctl login --base-url ${gateway}\` first.`);

async function withLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const started = Date.now();
  for (;;) {
    try {
      closeSync(openSync(path, 'wx', 0o600));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(path).mtimeMs > STALE_LOCK_MS) rmSync(path, { force: true });
      } catch {
        // Removed by its holder meanwhile.
      }
      if (Date.now() - started > LOCK_WAIT_MS) throw new SignInError(`Another gwctl has been refreshing the sign-in for over ${LOCK_WAIT_MS / 1000} s (lock ${path}).`, `If no gwctl is running, delete ${path}.`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(path, { force: true });
  }
}

export async function freshAccessToken(baseUrl: string, deps: FreshTokenDeps): Promise<SignInRecord> {
  const gateway = gatewayKey(baseUrl);
  const now = deps.now ?? Date.now;
  const current = await deps.store.read(gateway);
  if (!current) throw notSignedIn(gateway);
  if (current.accessExpiresAt - now() > REFRESH_MARGIN_MS) return current;
  return withLock(deps.lockPath, async () => {
    // Another process may have refreshed while this one waited for the lock.
    const record = await deps.store.read(gateway);
    if (!record) throw notSignedIn(gateway);
    if (record.accessExpiresAt - now() > REFRESH_MARGIN_MS) return record;
    const answer = await requestTokens(record.tokenEndpoint, { grant_type: 'refresh_token', refresh_token: record.refreshToken });
    if (!answer.ok) {
      if (answer.error === 'invalid_grant') {
        await deps.store.remove(gateway);
        throw new SignInError(`The sign-in to ${gateway} has ended: ${answer.description}`, `Run \`gwctl login --base-url ${gateway}\` again.`);
      }
      throw new SignInError(`The gateway did not refresh the sign-in: ${answer.description}`, 'Try again in a moment.');
    }
    const next: SignInRecord = { ...record, refreshToken: answer.tokens.refresh_token, accessToken: answer.tokens.access_token, accessExpiresAt: now() + answer.tokens.expires_in * 1000 };
    await deps.store.write(next);
    return next;
  });
}
