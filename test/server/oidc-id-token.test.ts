// The relying party's checks of what comes back from the token endpoint, for answers a certified
// provider never gives: an ID token signed with a key the provider does not publish, one for
// another client, one without the sign-in's nonce, a refused code, and a discovery document that
// names another issuer. (The good path and the browser-side checks run against oidc-provider in
// test/e2e/web-oidc-sign-in.test.ts.)
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { OidcCallbackError, OidcProviderClient } from '../../server/oidc/oidc-provider-client.ts';
import { waitFor } from '../helpers/wait-for.ts';

describe('ID token verification', () => {
  let server: Server;
  let issuer: string;
  let published: { privateKey: CryptoKey; jwk: JWK };
  let unpublished: CryptoKey;
  let answer: () => Promise<{ status: number; body: unknown }>;
  let claimedIssuer: string | undefined;

  before(async () => {
    const a = await generateKeyPair('RS256');
    const b = await generateKeyPair('RS256');
    published = { privateKey: a.privateKey, jwk: { ...(await exportJWK(a.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' } };
    unpublished = b.privateKey;
    server = createServer((req, res) => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.url === '/.well-known/openid-configuration') {
        return send(200, { issuer: claimedIssuer ?? issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` });
      }
      if (req.url === '/jwks') return send(200, { keys: [published.jwk] });
      if (req.url === '/token') {
        req.resume();
        req.on('end', () => void answer().then(({ status, body }) => send(status, body)));
        return undefined;
      }
      return send(404, {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const settings = () => ({ issuer, clientId: 'gateway', groupsClaim: 'groups', adminGroups: [], viewerGroups: [] });
  const pending = { state: 's', nonce: 'the-nonce', verifier: 'v'.repeat(43) };

  async function idToken(key: CryptoKey, claims: Record<string, unknown> = {}) {
    return new SignJWT({ nonce: 'the-nonce', ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(issuer)
      .setAudience('gateway')
      .setSubject('person-1')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);
  }

  async function finishWith(token: string | undefined, status = 200) {
    answer = async () => ({ status, body: status === 200 ? { id_token: token, token_type: 'Bearer' } : { error: 'invalid_grant', error_description: 'grant request is invalid' } });
    return new OidcProviderClient(settings()).finish('code', pending, 'http://gw.test/login/oidc/callback');
  }

  it('accepts a token signed with a published key and carrying the nonce', async () => {
    const claims = await finishWith(await idToken(published.privateKey));
    assert.equal(claims.sub, 'person-1');
  });

  it('follows a key rotation: a token signed with a newly published key is verified after a fresh fetch of the keys', async () => {
    const client = new OidcProviderClient(settings());
    answer = async () => ({ status: 200, body: { id_token: await idToken(published.privateKey) } });
    await client.finish('code', pending, 'http://gw.test/login/oidc/callback');
    const next = await generateKeyPair('RS256');
    const old = published;
    published = { privateKey: next.privateKey, jwk: { ...(await exportJWK(next.publicKey)), kid: 'k2', alg: 'RS256', use: 'sig' } };
    try {
      const rotated = () => new SignJWT({ nonce: 'the-nonce' }).setProtectedHeader({ alg: 'RS256', kid: 'k2' }).setIssuer(issuer).setAudience('gateway').setSubject('person-2').setIssuedAt().setExpirationTime('5m').sign(next.privateKey);
      answer = async () => ({ status: 200, body: { id_token: await rotated() } });
      // Within a second of the last fetch the set is not fetched again (a flood of unknown key ids
      // cannot hammer the provider); after it, the new key is found.
      const claims = await waitFor(() => client.finish('code', pending, 'http://gw.test/login/oidc/callback').catch(() => undefined), { timeoutMs: 15_000, intervalMs: 200, what: 'the rotated key to be fetched' });
      assert.equal(claims.sub, 'person-2');
    } finally {
      published = old;
    }
  });

  it('refuses a token signed with a key the provider does not publish', async () => {
    await assert.rejects(finishWith(await idToken(unpublished)), (error) => error instanceof OidcCallbackError && /failed verification/.test(error.message));
  });

  it('refuses a token for another client, from another issuer, or without this sign-in’s nonce', async () => {
    await assert.rejects(finishWith(await new SignJWT({ nonce: 'the-nonce' }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setIssuer(issuer).setAudience('someone-else').setSubject('p').setIssuedAt().setExpirationTime('5m').sign(published.privateKey)), OidcCallbackError);
    await assert.rejects(finishWith(await new SignJWT({ nonce: 'the-nonce' }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setIssuer('https://evil.test').setAudience('gateway').setSubject('p').setIssuedAt().setExpirationTime('5m').sign(published.privateKey)), OidcCallbackError);
    await assert.rejects(finishWith(await idToken(published.privateKey, { nonce: 'another' })), (error) => error instanceof OidcCallbackError && /nonce/.test(error.message));
    const expired = await new SignJWT({ nonce: 'the-nonce' }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setIssuer(issuer).setAudience('gateway').setSubject('p').setIssuedAt(Math.floor(Date.now() / 1000) - 1200).setExpirationTime(Math.floor(Date.now() / 1000) - 600).sign(published.privateKey);
    await assert.rejects(finishWith(expired), (error) => error instanceof OidcCallbackError && /exp/.test(error.message));
  });

  it('reports a refused code, and a discovery document that names another issuer', async () => {
    await assert.rejects(finishWith(undefined, 400), (error) => error instanceof OidcCallbackError && /refused the sign-in code \(invalid_grant/.test(error.message));
    claimedIssuer = 'https://elsewhere.test';
    await assert.rejects(new OidcProviderClient(settings()).metadata(), /says its issuer is "https:\/\/elsewhere\.test"/);
    claimedIssuer = undefined;
  });
});
