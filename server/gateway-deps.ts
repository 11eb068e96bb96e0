// Everything the two listeners share, built once by start.ts (or by a test).
import type { Logger } from 'pino';
import type { KeyAuthenticator } from './auth/key-authenticator.ts';
import type { RedisCluster } from './cluster/redis-cluster.ts';
import type { Lifecycle } from './lifecycle.ts';
import type { GatewayMetrics } from './metrics/gateway-metrics.ts';
import type { FailureLog } from './web/session/failure-log.ts';
import type { LoginLimiter } from './web/session/login-limiter.ts';
import type { BodyBudget } from './limits/body-budget.ts';
import type { BudgetCounter } from './limits/budget-counter.ts';
import type { RateLimit } from './limits/rate-limiter.ts';
import type { ModelRouter } from './providers/model-router.ts';
import type { PriceBook } from './pricing/price-book.ts';
import type { Store } from './store/store.ts';
import type { OidcProviderClient } from './oidc/oidc-provider-client.ts';
import type { UsageMeter } from './usage/usage-meter.ts';
import type { RequestLog } from './usage/request-log.ts';
import type { UsageJournal } from './usage/usage-journal.ts';

export interface GatewaySettings {
  /** {base_url} as clients should write it (no trailing slash). */
  publicUrl: string;
  /** {image_base_url}. */
  publicImageUrl: string;
  bodyLimitBytes: number;
  /** How long a client may take to send its whole request (default DEFAULT_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
  /** Deepest JSON nesting accepted in a request body (default DEFAULT_JSON_MAX_DEPTH). */
  jsonMaxDepth?: number;
  /** Bearer token that GET /metrics requires; unset = metrics off. */
  metricsToken?: string;
  /**
   * Answer the hot API routes (chat completions, messages) on node:http without fastify's
   * per-request pipeline (server/fast-lane/). Default on; false sends every request through fastify.
   */
  fastLane?: boolean;
  /**
   * Reverse proxies in front whose X-Forwarded-For is believed (`--trust-proxy`): their addresses
   * or ranges, or how many hops; absent = none, the socket address is the client's.
   */
  trustProxy?: TrustProxy;
  /** Strict-Transport-Security max-age in seconds on the web pages when the public URL is https; absent or 0 = none. */
  hstsMaxAge?: number;
  /** Keys one user may have; 0 = no cap (default DEFAULT_MAX_KEYS_PER_USER). */
  maxKeysPerUser?: number;
  /** A web session unused this long ends; 0 = only the absolute lifetime (default DEFAULT_SESSION_IDLE_MS). */
  sessionIdleMs?: number;
  /** Lifetime of a device sign-in's access token (default DEFAULT_ACCESS_TOKEN_TTL_SECONDS, one hour). */
  accessTokenTtlSeconds?: number;
  /** Name-and-password sign-in on /login (default true); off when an identity provider signs everyone in. */
  localPasswords?: boolean;
  /** The base of what GET /managed/settings serves Claude Code (--claude-managed-settings); absent = only availableModels. */
  claudeManagedSettings?: Record<string, unknown>;
}

/** What fastify's trustProxy takes: a hop count or a list of addresses, ranges and names such as `loopback`. */
export type TrustProxy = number | string[];


export interface GatewayDeps {
  store: Store;
  authenticator: KeyAuthenticator;
  router: ModelRouter;
  rateLimiter: RateLimit;
  /** Token and request budgets of keys (in memory, or shared through Redis). */
  budgets: BudgetCounter;
  usage: UsageMeter;
  /** The price table cost is computed from; absent = every cost unknown (tests that do not price). */
  prices?: PriceBook;
  /** Per-request entries for the owner's request log, buffered and written in batches; absent = off. */
  requestLog?: RequestLog;
  /** Usage appended to a local file before the answer ends, replayed at start after a crash; absent = off (tests). */
  usageJournal?: UsageJournal;
  settings: GatewaySettings;
  lifecycle?: Lifecycle;
  /** Prometheus metrics; absent in tests that do not look at them. */
  metrics?: GatewayMetrics;
  /** Shared state of several instances (rate limits, login throttling, health, revocations). */
  cluster?: RedisCluster;
  /** Failed-login memory (shared through Redis when configured). */
  loginLimiter?: LoginLimiter;
  /** Where device sign-in attempts are counted (shared through Redis when configured); absent = this process. */
  attemptLog?: FailureLog;
  /** Bounds the request bodies held in memory at once; absent = no bound (tests). */
  bodyBudget?: BodyBudget;
  logger?: Logger;
  /** Single sign-on of the web console through an OpenID provider; absent = local passwords only. */
  oidc?: OidcProviderClient;
  /** The clock limits are judged by (expiry, budget periods); tests set it. Default Date.now. */
  now?: () => number;
}
