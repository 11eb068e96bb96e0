// A real OpenID provider for tests: oidc-provider (a certified implementation) on loopback, with
// its development login and consent pages, one confidential client for the gateway, and people
// whose claims (name, email, groups) the test chooses. Any password signs a known person in.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestPerson {
  sub: string;
  preferred_username?: string;
  email?: string;
  groups?: string[];
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The gateway's callback must be registered before anyone signs in. */
  configure(redirectUri: string): void;
  close(): Promise<void>;
}

export async function startTestProvider(people: TestPerson[]): Promise<TestProvider> {
  let handler: ((req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void) | undefined;
  const server: Server = createServer((req, res) => {
    if (!handler) {
      res.statusCode = 503;
      res.end('not configured yet');
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'gwctl-gateway';
  const clientSecret = 'test-client-secret-that-is-long-enough';
  return {
    issuer,
    clientId,
    clientSecret,
    configure(redirectUri: string) {
      const provider = new Provider(issuer, {
        clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
        claims: { openid: ['sub'], profile: ['preferred_username', 'groups'], email: ['email'] },
        pkce: { required: () => true },
        async findAccount(_ctx, id) {
          const person = people.find((p) => p.sub === id);
          if (!person) return undefined;
          return { accountId: id, claims: async () => ({ ...person }) };
        },
      });
      handler = provider.callback();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
