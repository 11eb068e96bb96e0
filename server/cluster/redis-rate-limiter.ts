// The per-key limit shared by every instance: one counter per key in Redis, created by the key's
// first request and expiring a minute later (the same windows as the in-memory limiter), counted
// atomically in one script call. If Redis does not answer, the instance falls back to its own
// in-memory limiter for that request (documented: the limit is then per instance until Redis is back).
import { RateLimiter, type RateDecision, type RateLimit } from '../limits/rate-limiter.ts';
import type { RedisCluster } from './redis-cluster.ts';

const WINDOW_MS = 60_000;
const TAKE = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
return {count, ttl}`;

export class RedisRateLimiter implements RateLimit {
  private readonly local: RateLimiter;
  /** Requests decided by the in-memory fallback because Redis did not answer. */
  fallbacks = 0;

  constructor(
    private readonly cluster: RedisCluster,
    readonly requestsPerMinute: number,
  ) {
    this.local = new RateLimiter(requestsPerMinute);
  }

  get enabled(): boolean {
    return this.requestsPerMinute > 0;
  }

  async take(subject: string, limit: number = this.requestsPerMinute): Promise<RateDecision> {
    try {
      const [count, ttl] = (await this.cluster.command.eval(TAKE, 1, `${this.cluster.prefix}rate:${subject}`, String(WINDOW_MS))) as [number, number];
      const resetMs = ttl > 0 ? ttl : WINDOW_MS;
      if (count > limit) return { allowed: false, limit, remaining: 0, resetMs };
      return { allowed: true, limit, remaining: limit - count, resetMs };
    } catch {
      this.fallbacks += 1;
      return this.local.take(subject, limit);
    }
  }
}
