// The parts of the gateway whose state must agree across instances, built for the mode it runs in:
// - SQLite (one instance): in-memory limits; the key cache follows the file's data_version.
// - PostgreSQL without Redis: in-memory limits per instance; the key cache follows LISTEN/NOTIFY.
// - PostgreSQL with Redis: rate limits, key budgets, login and device sign-in throttling and provider health shared through Redis;
//   the key cache follows both feeds and is bypassed while either is disconnected.
import type { Logger } from 'pino';
import { randomBase62 } from '../auth/random-tokens.ts';
import { KeyAuthenticator } from '../auth/key-authenticator.ts';
import { groupModelsLoader } from '../accounts/group-models.ts';
import type { GroupPolicy } from '../store/group-policies-repo.ts';
import { MemoryBudgetCounter, type BudgetCounter } from '../limits/budget-counter.ts';
import { budgetUsageLoader } from '../limits/budget-usage-loader.ts';
import { SeededBudgetCounter } from '../limits/seeded-budget-counter.ts';
import { RateLimiter, type RateLimit } from '../limits/rate-limiter.ts';
import type { ModelRouter } from '../providers/model-router.ts';
import type { Store } from '../store/store.ts';
import { LoginLimiter } from '../web/session/login-limiter.ts';
import { MemoryFailureLog, type FailureLog } from '../web/session/failure-log.ts';
import { PgRevocationFeed } from './pg-revocation-feed.ts';
import { RedisCluster } from './redis-cluster.ts';
import { RedisBudgetCounter } from './redis-budget-counter.ts';
import { RedisFailureLog } from './redis-failure-log.ts';
import { RedisRateLimiter } from './redis-rate-limiter.ts';
import type { RevocationFeed } from './revocation.ts';
import { shareProviderHealth } from './shared-health.ts';

export interface SharedPartsOptions {
  databaseUrl: string;
  redisUrl?: string;
  /** Prefix of every Redis key and channel (default "gwctl:"). */
  redisPrefix?: string;
  requestsPerMinute: number;
  /** Model allowlists of groups from the providers file. */
  fileGroups?: GroupPolicy[];
}

export interface SharedParts {
  cluster?: RedisCluster;
  authenticator: KeyAuthenticator;
  rateLimiter: RateLimit;
  budgets: BudgetCounter;
  loginLimiter: LoginLimiter;
  /** Device sign-in attempts (codes asked for, codes guessed wrong). */
  attemptLog: FailureLog;
  close(): Promise<void>;
}

export async function buildSharedParts(store: Store, router: ModelRouter, options: SharedPartsOptions, logger?: Logger): Promise<SharedParts> {
  const log = (message: string) => logger?.warn(message);
  const cluster = options.redisUrl ? await RedisCluster.connect(options.redisUrl, options.redisPrefix ?? 'gwctl:', log) : undefined;
  const feeds: RevocationFeed[] = [];
  if (store.database.dialect === 'postgres') {
    feeds.push(new PgRevocationFeed(options.databaseUrl, log));
    if (cluster) feeds.push(cluster.revocationFeed());
  }
  const authenticator = new KeyAuthenticator(store.keys, store.users, store.database.dialect === 'sqlite' ? { changedElsewhere: store.database.changedElsewhere } : { feeds }, store.signInGrants, groupModelsLoader(store, options.fileGroups));
  await authenticator.start();
  if (cluster) shareProviderHealth(router.health, cluster, randomBase62(12));
  return {
    cluster,
    authenticator,
    rateLimiter: cluster ? new RedisRateLimiter(cluster, options.requestsPerMinute) : new RateLimiter(options.requestsPerMinute),
    budgets: new SeededBudgetCounter(cluster ? new RedisBudgetCounter(cluster) : new MemoryBudgetCounter(), budgetUsageLoader(store.usage)),
    loginLimiter: new LoginLimiter(cluster ? { log: new RedisFailureLog(cluster) } : {}),
    attemptLog: cluster ? new RedisFailureLog(cluster, 'attempts') : new MemoryFailureLog(),
    async close() {
      await authenticator.close();
      await cluster?.close();
    },
  };
}
