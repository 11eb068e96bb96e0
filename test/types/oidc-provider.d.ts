// The package ships no types: the part of its API the test identity provider uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  interface Account {
    accountId: string;
    claims: () => Promise<Record<string, unknown>>;
  }
  interface Configuration {
    clients: Array<Record<string, unknown>>;
    claims?: Record<string, string[]>;
    pkce?: { required: () => boolean };
    findAccount?: (ctx: unknown, id: string) => Promise<Account | undefined>;
    [name: string]: unknown;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
