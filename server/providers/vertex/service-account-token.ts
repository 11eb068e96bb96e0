// Access tokens for a Google service account: a JWT signed with the account's key, exchanged at the
// token endpoint its file names (`token_uri`), through google-auth-library, loaded with the first
// request. The library's JWT flow always posts to Google's public endpoint and puts that in the
// assertion's audience, so both are pointed at `token_uri` (private endpoints, tests).
import type { AccessToken } from './cached-access-token.ts';

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

export interface ServiceAccount {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri: string;
}

/** A token endpoint that refused the account (bad key, disabled account, wrong audience). */
export class TokenRefusedError extends Error {
  override readonly name = 'TokenRefusedError';
}

/** The token endpoint could not be reached or answered something unusable. */
export class TokenUnavailableError extends Error {
  override readonly name = 'TokenUnavailableError';
}

export function serviceAccountTokenFetcher(account: ServiceAccount): () => Promise<AccessToken> {
  let client: Promise<{ authorize(): Promise<{ access_token?: string | null; expiry_date?: number | null }> }> | undefined;
  const load = async () => {
    const { JWT } = await import('google-auth-library');
    const jwt = new JWT({
      email: account.client_email,
      key: account.private_key,
      keyId: account.private_key_id,
      scopes: [CLOUD_PLATFORM_SCOPE],
      additionalClaims: { aud: account.token_uri },
      // Wider than CachedAccessToken's margin, so when it asks for a new token the library does not hand back its cached one.
      eagerRefreshThresholdMillis: 10 * 60_000,
    });
    if (account.token_uri !== GOOGLE_TOKEN_URL) {
      jwt.transporter.interceptors.request.add({
        resolved: async (options) => {
          if (String(options.url) === GOOGLE_TOKEN_URL) options.url = new URL(account.token_uri);
          return options;
        },
      });
    }
    return jwt;
  };
  return async () => {
    client ??= load();
    const jwt = await client;
    let credentials: { access_token?: string | null; expiry_date?: number | null };
    try {
      credentials = await jwt.authorize();
    } catch (error) {
      const status = (error as { status?: number; response?: { status?: number } }).status ?? (error as { response?: { status?: number } }).response?.status;
      const message = (error as Error).message.split('\n')[0];
      if (status !== undefined && status >= 400 && status < 500) throw new TokenRefusedError(`the token endpoint ${account.token_uri} refused the service account ${account.client_email} (${status}: ${message})`);
      throw new TokenUnavailableError(`obtaining an access token from ${account.token_uri} failed: ${message}`);
    }
    if (!credentials.access_token) throw new TokenUnavailableError(`the token endpoint ${account.token_uri} answered without an access token`);
    return { token: credentials.access_token, expiresAt: credentials.expiry_date ?? Date.now() + 3_600_000 };
  };
}
