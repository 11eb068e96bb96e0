// An OAuth access token kept until shortly before it expires, then fetched again: one fetch at a
// time however many requests wait for it, and a token still valid is used if a refresh fails.
export interface AccessToken {
  token: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** Refresh this long before expiry, so a request never leaves with a token about to lapse. */
const REFRESH_BEFORE_MS = 5 * 60_000;

export class CachedAccessToken {
  private current?: AccessToken;
  private refreshing?: Promise<AccessToken>;

  constructor(
    private readonly fetchToken: () => Promise<AccessToken>,
    private readonly now: () => number = Date.now,
  ) {}

  async get(): Promise<string> {
    const current = this.current;
    if (current && current.expiresAt - this.now() > REFRESH_BEFORE_MS) return current.token;
    try {
      return (await this.refresh()).token;
    } catch (error) {
      if (current && current.expiresAt > this.now()) return current.token;
      throw error;
    }
  }

  private refresh(): Promise<AccessToken> {
    this.refreshing ??= this.fetchToken()
      .then((token) => {
        this.current = token;
        return token;
      })
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }
}
