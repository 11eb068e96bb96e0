// Failed logins shared by every instance: one sorted set per subject in Redis (score = time),
// trimmed to the window and to a bounded size on every write. If Redis does not answer, this
// instance's own memory keeps the count meanwhile.
import { MAX_KEPT, MemoryFailureLog, type FailureLog } from '../web/session/failure-log.ts';
import type { RedisCluster } from './redis-cluster.ts';

export class RedisFailureLog implements FailureLog {
  private readonly fallback = new MemoryFailureLog();

  /** `namespace` keeps one log's subjects apart from another's (failed logins, sign-in attempts). */
  constructor(
    private readonly cluster: RedisCluster,
    private readonly namespace = 'login',
  ) {}

  private key(subject: string): string {
    return `${this.cluster.prefix}${this.namespace}:${subject}`;
  }

  async add(subject: string, at: number, windowMs: number): Promise<void> {
    try {
      await this.cluster.command
        .multi()
        .zadd(this.key(subject), at, `${at}:${Math.random().toString(36).slice(2, 8)}`)
        .zremrangebyscore(this.key(subject), '-inf', at - windowMs)
        .zremrangebyrank(this.key(subject), 0, -(MAX_KEPT + 1))
        .pexpire(this.key(subject), windowMs)
        .exec();
    } catch {
      await this.fallback.add(subject, at, windowMs);
    }
  }

  async recent(subject: string, since: number): Promise<number[]> {
    try {
      const scores = await this.cluster.command.zrangebyscore(this.key(subject), since, '+inf', 'WITHSCORES');
      return scores.filter((_, i) => i % 2 === 1).map(Number);
    } catch {
      return this.fallback.recent(subject, since);
    }
  }

  async clear(subject: string): Promise<void> {
    try {
      await this.cluster.command.del(this.key(subject));
    } catch {
      await this.fallback.clear(subject);
    }
  }
}
