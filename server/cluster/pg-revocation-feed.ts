// Revocations through PostgreSQL LISTEN/NOTIFY: the store sends NOTIFY in the same transaction as a
// key deletion or a user disable, so an event exists exactly when the change committed. One
// dedicated connection listens; when it drops it reconnects with backoff, and until then the feed
// reports itself disconnected (the cache is bypassed).
import type { Client } from 'pg';
import { decodeRevocation, REVOCATION_CHANNEL, type RevocationEvent, type RevocationFeed } from './revocation.ts';

export class PgRevocationFeed implements RevocationFeed {
  readonly name = 'postgres-notify';
  private client: Client | undefined;
  private live = false;
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private handlers: { event: (event: RevocationEvent) => void; resync: () => void } | undefined;

  constructor(
    private readonly url: string,
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  get connected(): boolean {
    return this.live;
  }

  async start(handlers: { event: (event: RevocationEvent) => void; resync: () => void }): Promise<void> {
    this.handlers = handlers;
    await this.connect(0);
  }

  private async connect(attempt: number): Promise<void> {
    if (this.closed) return;
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: this.url });
    client.on('error', () => this.lost(client, attempt));
    client.on('end', () => this.lost(client, attempt));
    client.on('notification', (message) => {
      const event = message.payload ? decodeRevocation(message.payload) : undefined;
      if (event) this.handlers?.event(event);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${REVOCATION_CHANNEL}`);
    } catch (error) {
      this.log(`revocation listener could not connect: ${(error as Error).message}`);
      client.end().catch(() => undefined);
      this.scheduleRetry(attempt + 1);
      return;
    }
    this.client = client;
    // Events may have been missed before this subscription: forget everything cached.
    this.handlers?.resync();
    this.live = true;
  }

  private lost(client: Client, attempt: number): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.live = false;
    client.end().catch(() => undefined);
    this.log('revocation listener lost its connection; checking keys in the database until it is back');
    this.scheduleRetry(Math.min(attempt + 1, 6));
  }

  private scheduleRetry(attempt: number): void {
    if (this.closed) return;
    const delay = Math.min(5_000, 100 * 2 ** attempt);
    this.retryTimer = setTimeout(() => void this.connect(attempt), delay);
    this.retryTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.live = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.client?.end().catch(() => undefined);
  }
}
