// The Redis side of several gateway instances: one connection for commands (shared rate limits,
// login throttling) and one subscribed to the instances' topics (revocations, provider health).
// Commands fail fast while Redis is away (no offline queue), so callers fall back at once instead
// of waiting; the subscriber reconnects by itself and reports each reconnection, since messages
// published meanwhile were missed.
import type { Redis } from 'ioredis';
import { decodeRevocation, encodeRevocation, type RevocationEvent, type RevocationFeed } from './revocation.ts';

export type TopicHandler = (message: string) => void;

export class RedisCluster {
  private readonly handlers = new Map<string, TopicHandler[]>();
  private readonly resyncs: Array<() => void> = [];
  private subscribed = false;

  private constructor(
    readonly command: Redis,
    private readonly subscriber: Redis,
    /** Prepended to every key and channel, so several gateways (or tests) can share one Redis. */
    readonly prefix: string,
    private readonly log: (message: string) => void,
  ) {
    subscriber.on('message', (channel: string, message: string) => {
      for (const handler of this.handlers.get(channel) ?? []) handler(message);
    });
    subscriber.on('close', () => {
      if (this.subscribed) this.log('Redis connection lost: shared limits fall back to this instance, keys are checked in the database');
      this.subscribed = false;
    });
    subscriber.on('ready', () => void this.resubscribe());
    // Errors are reported through 'close' and failed commands; an unhandled 'error' would crash.
    subscriber.on('error', () => undefined);
    command.on('error', () => undefined);
  }

  static async connect(url: string, prefix: string, log: (message: string) => void = () => undefined): Promise<RedisCluster> {
    const { Redis } = await import('ioredis');
    const options = { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 5_000, retryStrategy: (times: number) => Math.min(2_000, 50 * 2 ** Math.min(times, 6)), lazyConnect: true };
    const command = new Redis(url, options);
    const subscriber = new Redis(url, { ...options, autoResubscribe: false });
    const cluster = new RedisCluster(command, subscriber, prefix, log);
    try {
      await Promise.all([command.connect(), subscriber.connect()]);
    } catch (error) {
      await cluster.close();
      throw new Error(`cannot connect to Redis at ${url.replace(/\/\/([^:/@]*):([^@]+)@/, '//$1:***@')}: ${(error as Error).message}`);
    }
    await cluster.resubscribe();
    return cluster;
  }

  /** Connected and subscribed: nothing published now can be missed. */
  get connected(): boolean {
    return this.subscribed && this.command.status === 'ready';
  }

  channel(topic: string): string {
    return `${this.prefix}${topic}`;
  }

  on(topic: string, handler: TopicHandler): void {
    const channel = this.channel(topic);
    this.handlers.set(channel, [...(this.handlers.get(channel) ?? []), handler]);
    if (this.subscriber.status === 'ready') void this.subscriber.subscribe(channel).catch(() => undefined);
  }

  onResync(handler: () => void): void {
    this.resyncs.push(handler);
  }

  async publish(topic: string, message: string): Promise<void> {
    await this.command.publish(this.channel(topic), message);
  }

  private async resubscribe(): Promise<void> {
    const channels = [...this.handlers.keys()];
    try {
      if (channels.length > 0) await this.subscriber.subscribe(...channels);
    } catch {
      return;
    }
    for (const resync of this.resyncs) resync();
    if (!this.subscribed) this.log('Redis subscription ready');
    this.subscribed = true;
  }

  revocationFeed(): RevocationFeed {
    const cluster = this;
    return {
      name: 'redis',
      get connected() {
        return cluster.connected;
      },
      async start(handlers) {
        cluster.onResync(handlers.resync);
        cluster.on('revocations', (message) => {
          const event = decodeRevocation(message);
          if (event) handlers.event(event);
        });
        await cluster.resubscribe();
      },
      async close() {},
    };
  }

  publishRevocation(event: RevocationEvent): Promise<void> {
    return this.publish('revocations', encodeRevocation(event));
  }

  async close(): Promise<void> {
    this.subscriber.disconnect();
    this.command.disconnect();
  }
}
