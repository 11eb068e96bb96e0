// The gateway as an OpenID Connect relying party: the provider's discovery document (cached, with
// its issuer checked), the authorization address (code flow, PKCE S256, state, nonce), the code
// exchange and the ID token's verification against the provider's published keys. jose's remote
// key set refetches the keys when a token names a key it has not seen (key rotation). jose is loaded
// at the first sign-in, so a gateway never asked for one (the embedded default) does not load it.
import { createHash, randomBytes } from 'node:crypto';
import type { createRemoteJWKSet, JWTPayload } from 'jose';
import type { OidcSettings } from './oidc-settings.ts';

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint?: string;
}

/** A check the callback failed: shown to the person (400), no session is made. */
export class OidcCallbackError extends Error {
  override readonly name = 'OidcCallbackError';
}

export interface PendingLogin {
  state: string;
  nonce: string;
  verifier: string;
}

const TIMEOUT_MS = 15_000;
const base64url = (bytes: Buffer) => bytes.toString('base64url');

export class OidcProviderClient {
  private discovery?: Promise<Discovery>;
  private keys?: ReturnType<typeof createRemoteJWKSet>;

  constructor(readonly settings: OidcSettings) {}

  private async fetchJson(url: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
    const text = await response.text();
    try {
      return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
    } catch {
      return { status: response.status, body: {} };
    }
  }

  /** The discovery document; a failed fetch is retried on the next use. */
  metadata(): Promise<Discovery> {
    this.discovery ??= (async () => {
      const url = `${this.settings.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
      const { status, body } = await this.fetchJson(url);
      const doc = body as Partial<Discovery>;
      if (status !== 200 || !doc.authorization_endpoint || !doc.token_endpoint || !doc.jwks_uri) {
        throw new Error(`The identity provider's discovery document ${url} answered ${status} without the endpoints sign-in needs.`);
      }
      if (doc.issuer !== this.settings.issuer) throw new Error(`The identity provider says its issuer is "${doc.issuer}", not "${this.settings.issuer}" as configured (--oidc-issuer).`);
      return doc as Discovery;
    })().catch((error: unknown) => {
      this.discovery = undefined;
      throw error;
    });
    return this.discovery;
  }

  /** A fresh state, nonce and PKCE verifier, and the address to send the browser to. */
  async begin(redirectUri: string): Promise<{ pending: PendingLogin; url: string }> {
    const meta = await this.metadata();
    const pending: PendingLogin = { state: base64url(randomBytes(24)), nonce: base64url(randomBytes(24)), verifier: base64url(randomBytes(32)) };
    const url = new URL(meta.authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.settings.clientId,
      redirect_uri: redirectUri,
      scope: 'openid profile email',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: base64url(createHash('sha256').update(pending.verifier).digest()),
      code_challenge_method: 'S256',
    }).toString();
    return { pending, url: url.toString() };
  }

  /** The code exchanged and the ID token verified; returns the person's claims (ID token + userinfo). */
  async finish(code: string, pending: PendingLogin, redirectUri: string): Promise<JWTPayload & Record<string, unknown>> {
    const meta = await this.metadata();
    const params = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: pending.verifier, client_id: this.settings.clientId });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (this.settings.clientSecret) {
      const encode = (value: string) => encodeURIComponent(value);
      headers.authorization = `Basic ${Buffer.from(`${encode(this.settings.clientId)}:${encode(this.settings.clientSecret)}`).toString('base64')}`;
    }
    const { status, body } = await this.fetchJson(meta.token_endpoint, { method: 'POST', headers, body: params.toString() });
    if (status !== 200 || typeof body.id_token !== 'string') {
      const reason = typeof body.error === 'string' ? `${body.error}${typeof body.error_description === 'string' ? `: ${body.error_description}` : ''}` : `HTTP ${status}`;
      throw new OidcCallbackError(`The identity provider refused the sign-in code (${reason}). A code works once: it may have been used already or have expired.`);
    }
    // A token signed with a key not yet seen fetches the set again, at most once a second: a
    // provider that rotates its keys is followed within a sign-in or two.
    const { createRemoteJWKSet, jwtVerify } = await import('jose');
    this.keys ??= createRemoteJWKSet(new URL(meta.jwks_uri), { cooldownDuration: 1000, cacheMaxAge: 600_000 });
    let claims: JWTPayload & Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(body.id_token, this.keys, { issuer: meta.issuer, audience: this.settings.clientId, algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'] }));
    } catch (error) {
      throw new OidcCallbackError(`The identity provider's ID token failed verification (${(error as Error).message}).`);
    }
    if (claims.nonce !== pending.nonce) throw new OidcCallbackError('The ID token does not carry the nonce of this sign-in (a replayed or foreign token).');
    if (Array.isArray(claims.aud) && claims.aud.length > 1 && claims.azp !== this.settings.clientId) throw new OidcCallbackError('The ID token was issued to another client (azp).');
    if (typeof claims.sub !== 'string' || claims.sub === '') throw new OidcCallbackError('The ID token names no subject (sub).');
    // Profile and group claims often come from the userinfo endpoint rather than the ID token.
    if (meta.userinfo_endpoint && typeof body.access_token === 'string') {
      const info = await this.fetchJson(meta.userinfo_endpoint, { headers: { authorization: `Bearer ${body.access_token}`, accept: 'application/json' } });
      if (info.status === 200 && info.body.sub === claims.sub) claims = { ...info.body, ...claims };
    }
    return claims;
  }
}
