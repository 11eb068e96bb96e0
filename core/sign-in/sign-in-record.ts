// What `gwctl login` keeps for one gateway: the refresh token (the sign-in itself) and the current
// short-lived access token with its expiry, so `gwctl token` refreshes only when needed.

export interface SignInRecord {
  /** The gateway's base address, without a trailing slash. */
  gateway: string;
  /** Where the gateway's token endpoint is (from its discovery document). */
  tokenEndpoint: string;
  revocationEndpoint?: string;
  refreshToken: string;
  accessToken: string;
  /** Epoch milliseconds. */
  accessExpiresAt: number;
}

/** Where a sign-in is kept: the OS keychain or a file only the user can read. */
export interface CredentialStore {
  /** Shown to the user: "the keychain (secret-tool)" or the file path. */
  readonly where: string;
  read(gateway: string): Promise<SignInRecord | undefined>;
  write(record: SignInRecord): Promise<void>;
  remove(gateway: string): Promise<boolean>;
}

/** One spelling per gateway: no trailing slash. */
export function gatewayKey(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

export function isSignInRecord(value: unknown): value is SignInRecord {
  const r = value as SignInRecord;
  return typeof r === 'object' && r !== null && typeof r.gateway === 'string' && typeof r.tokenEndpoint === 'string' && typeof r.refreshToken === 'string' && typeof r.accessToken === 'string' && typeof r.accessExpiresAt === 'number';
}
