// Options of `gwctl serve`, with their defaults. The CLI fills them from flags and GWCTL_* variables.
import { join } from 'node:path';
import { defaultDataDir } from '../core/paths.ts';
import type { TrustProxy } from './gateway-deps.ts';
import type { OidcSettings } from './oidc/oidc-settings.ts';

export interface ServeOptions {
  host: string;
  port: number;
  imagePort: number;
  dataDir: string;
  databaseUrl: string;
  configFile?: string;
  publicUrl?: string;
  publicImageUrl?: string;
  /** Per-key requests per minute; 0 turns the limit off. Overrides the providers file. */
  rateLimitRpm?: number;
  /** Overrides the providers file. */
  bodyLimitBytes?: number;
  /** How long a client may take to send its whole request (default DEFAULT_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
  /** Request bodies held in memory at once (default DEFAULT_INFLIGHT_BODY_BYTES). */
  inflightBodyBytes?: number;
  /** Deepest JSON nesting accepted in request bodies (default DEFAULT_JSON_MAX_DEPTH). */
  jsonMaxDepth?: number;
  /** Redis for several instances (shared limits, login throttling, provider health, revocations). */
  redisUrl?: string;
  redisPrefix?: string;
  /** PostgreSQL pool size and statement timeout. */
  dbPoolSize?: number;
  dbStatementTimeoutMs?: number;
  /** After a stop signal: how long /ready answers 503 while requests are still served, before draining. */
  shutdownGraceMs?: number;
  /** Bearer token GET /metrics requires; unset = metrics off. */
  metricsToken?: string;
  /** Reverse proxies whose X-Forwarded-For is believed (parseTrustProxy). */
  trustProxy?: TrustProxy;
  /** Strict-Transport-Security max-age on the pages when the public URL is https; 0/absent = off. */
  hstsMaxAge?: number;
  maxKeysPerUser?: number;
  sessionIdleMs?: number;
  /** Single sign-on of the web console; absent = local passwords only. */
  oidc?: OidcSettings;
  /** Name-and-password sign-in on /login (default true). */
  localPasswords?: boolean;
  /** Lifetime of device sign-in access tokens, in seconds (default one hour). */
  accessTokenTtlSeconds?: number;
  /** A managed-settings.json document served (with availableModels) to signed-in Claude Code. */
  claudeManagedSettingsFile?: string;
  /** How long in-flight requests and streams may run after a stop signal. */
  drainMs: number;
  usageFlushMs: number;
  /**
   * Names this process's usage journal (`<dataDir>/usage-journal/<name>/`); default the host name.
   * Gateways that share a data directory need different names.
   */
  instanceName?: string;
  logLevel: string;
}

export const DEFAULT_RATE_LIMIT_RPM = 600;
/** Largest request body (raise with --body-limit; a prompt with large attachments may need more). */
export const DEFAULT_BODY_LIMIT_BYTES = 16 * 1024 * 1024;
/** Request bodies held in memory at once across all requests (--inflight-body-limit). */
export const DEFAULT_INFLIGHT_BODY_BYTES = 64 * 1024 * 1024;
/** Time a client has to send its whole request (headers and body); answers may stream for longer. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
/** Deepest JSON nesting accepted in a request body (real clients' tool schemas stay far below it). */
export const DEFAULT_JSON_MAX_DEPTH = 128;

/** Keys one user may have (--max-keys-per-user; 0 = no cap). */
export const DEFAULT_MAX_KEYS_PER_USER = 100;
/** A web session unused this long ends (--session-idle-minutes; 0 = only the 7-day lifetime). */
export const DEFAULT_SESSION_IDLE_MS = 12 * 3600_000;

export function defaultDatabaseUrl(dataDir: string): string {
  return `sqlite://${join(dataDir, 'gateway.db')}`;
}

export function defaultServeOptions(env: NodeJS.ProcessEnv = process.env): ServeOptions {
  const dataDir = defaultDataDir(env);
  return {
    host: '127.0.0.1',
    port: 8080,
    imagePort: 8081,
    dataDir,
    databaseUrl: defaultDatabaseUrl(dataDir),
    drainMs: 10_000,
    // How often usage reaches the database. A hard kill loses none of it: the usage journal has it.
    usageFlushMs: 1_000,
    logLevel: 'info',
  };
}
