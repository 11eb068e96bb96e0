// The device authorization grant (RFC 8628) and refresh-token rotation, as answers of the token
// endpoint. Every refusal is an OAuth error code with a description that says what to do.
import type { GatewayDeps } from '../gateway-deps.ts';
import type { IssuedTokens, SignInGrant } from '../store/sign-in-grants-repo.ts';
import { revokeEverywhere } from '../cluster/revoke-everywhere.ts';
import { displayUserCode, generateAccessToken, generateDeviceCode, generateRefreshToken, generateUserCode } from './sign-in-secrets.ts';
import { accessTokenTtlSeconds, DEVICE_CODE_TTL_MS, POLL_INTERVAL_SECONDS, REFRESH_TOKEN_TTL_MS, SLOW_DOWN_STEP_SECONDS } from './sign-in-lifetimes.ts';

export interface OAuthError {
  status: number;
  error: string;
  description: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
}

export type TokenOutcome = { ok: true; body: TokenResponse } | { ok: false; refusal: OAuthError };

function refuse(error: string, description: string, status = 400): TokenOutcome {
  return { ok: false, refusal: { status, error, description } };
}

function nowOf(deps: GatewayDeps): Date {
  return new Date((deps.now ?? Date.now)());
}

function issue(deps: GatewayDeps, now: Date): IssuedTokens {
  return {
    accessToken: generateAccessToken(),
    accessExpiresAt: new Date(now.getTime() + accessTokenTtlSeconds(deps.settings) * 1000),
    refreshToken: generateRefreshToken(),
    refreshExpiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
  };
}

function answer(deps: GatewayDeps, tokens: IssuedTokens): TokenOutcome {
  return { ok: true, body: { access_token: tokens.accessToken, token_type: 'Bearer', expires_in: accessTokenTtlSeconds(deps.settings), refresh_token: tokens.refreshToken } };
}

/** POST /oauth/device_authorization: a new pending authorization and the codes to show. */
export async function startDeviceAuthorization(deps: GatewayDeps, client: { name: string; address: string }) {
  const now = nowOf(deps);
  await deps.store.deviceAuthorizations.deleteExpired(now);
  const deviceCode = generateDeviceCode();
  const userCode = generateUserCode();
  await deps.store.deviceAuthorizations.create({ deviceCode, userCode, clientName: client.name, clientAddress: client.address, now, lifetimeMs: DEVICE_CODE_TTL_MS, intervalSeconds: POLL_INTERVAL_SECONDS });
  const shown = displayUserCode(userCode);
  const verificationUri = `${deps.settings.publicUrl}/device`;
  return {
    device_code: deviceCode,
    user_code: shown,
    verification_uri: verificationUri,
    verification_uri_complete: `${verificationUri}?user_code=${shown}`,
    expires_in: DEVICE_CODE_TTL_MS / 1000,
    interval: POLL_INTERVAL_SECONDS,
  };
}

/** grant_type=urn:ietf:params:oauth:grant-type:device_code */
export async function collectDeviceTokens(deps: GatewayDeps, deviceCode: string): Promise<TokenOutcome> {
  const repo = deps.store.deviceAuthorizations;
  const now = nowOf(deps);
  const found = await repo.findByDeviceCode(deviceCode);
  if (!found) return refuse('invalid_grant', 'This device code is unknown or was already used. Start the sign-in again.');
  if (found.expiresAt <= now.toISOString()) {
    await repo.consume(found.deviceCodeHash);
    return refuse('expired_token', 'The device code expired before anyone approved it. Start the sign-in again.');
  }
  if (found.status === 'denied') {
    await repo.consume(found.deviceCodeHash);
    return refuse('access_denied', 'The sign-in was denied on the approval page.');
  }
  if (found.status === 'pending') {
    const last = found.lastPolledAt ? Date.parse(found.lastPolledAt) : undefined;
    // A little slack: a client that waits `interval` between polls must never be told to slow down.
    const tooFast = last !== undefined && now.getTime() - last < found.intervalSeconds * 800;
    const interval = tooFast ? found.intervalSeconds + SLOW_DOWN_STEP_SECONDS : found.intervalSeconds;
    await repo.notePoll(found.deviceCodeHash, now, interval);
    if (tooFast) return refuse('slow_down', `Polling too fast: wait ${interval} seconds between requests.`);
    return refuse('authorization_pending', 'Waiting for someone to approve the sign-in on the approval page.');
  }
  // Approved: collected once; of two racing polls only the one that removes the row gets tokens.
  if (!(await repo.consume(found.deviceCodeHash))) return refuse('invalid_grant', 'This device code was already used. Start the sign-in again.');
  const user = found.userId ? await deps.store.users.findById(found.userId) : undefined;
  if (!user || user.disabled) return refuse('access_denied', 'The account that approved this sign-in is disabled or was removed.');
  const tokens = issue(deps, now);
  await deps.store.signInGrants.create(user.id, found.clientName, tokens, now);
  return answer(deps, tokens);
}

/** grant_type=refresh_token: a new access token and a new refresh token; the old one is spent. */
export async function refreshSignIn(deps: GatewayDeps, refreshToken: string): Promise<TokenOutcome> {
  const now = nowOf(deps);
  const tokens = issue(deps, now);
  const used = await deps.store.signInGrants.rotate(refreshToken, tokens, now);
  switch (used.kind) {
    case 'unknown':
      return refuse('invalid_grant', 'This refresh token is unknown. Sign in again.');
    case 'expired':
      return refuse('invalid_grant', 'This refresh token expired. Sign in again.');
    case 'revoked':
      return refuse('invalid_grant', 'This sign-in was ended (signed out or revoked). Sign in again.');
    case 'reused':
      revokeEverywhere(deps, { kind: 'key', id: used.grant.id });
      await auditEnd(deps, used.grant, 'refresh token reused', 'gateway');
      return refuse('invalid_grant', 'This refresh token was already used, so this sign-in was ended to protect the account. Sign in again.');
    case 'ok': {
      const user = await deps.store.users.findById(used.grant.userId);
      if (!user || user.disabled) {
        await endSignIn(deps, used.grant.id, 'account disabled');
        return refuse('invalid_grant', 'The account of this sign-in is disabled or was removed.');
      }
      return answer(deps, tokens);
    }
  }
}

/** Ends one sign-in here and on every instance. */
export async function endSignIn(deps: GatewayDeps, grantId: string, reason: string): Promise<boolean> {
  const ended = await deps.store.signInGrants.revoke(grantId, reason, nowOf(deps));
  revokeEverywhere(deps, { kind: 'key', id: grantId });
  return ended;
}

/** POST /oauth/revoke (RFC 7009): either token ends its whole sign-in; an unknown token is no error. */
export async function revokeToken(deps: GatewayDeps, token: string, address: string): Promise<void> {
  const grant = await deps.store.signInGrants.findByToken(token);
  if (grant && !grant.revokedAt && (await endSignIn(deps, grant.id, 'revoked by the client'))) await auditEnd(deps, grant, 'signed out by the client', address);
}

/** The audit entry of an ended sign-in, under its person's name (never a token). */
async function auditEnd(deps: GatewayDeps, grant: SignInGrant, reason: string, address: string): Promise<void> {
  const user = await deps.store.users.findById(grant.userId);
  await deps.store.audit.record({ actor: `user:${user?.username ?? grant.userId}`, address, action: 'signin.revoke', target: `user:${user?.username ?? grant.userId}`, details: { signIn: grant.id, client: grant.clientName, reason } });
}
