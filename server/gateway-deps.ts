// Everything the two listeners share, built once by start.ts (or by a test).
import type { Logger } from 'pino';
import type { KeyAuthenticator } from './auth/key-authenticator.ts';
import type { Lifecycle } from './lifecycle.ts';
import type { BodyBudget } from './limits/body-budget.ts';
import type { RateLimiter } from './limits/rate-limiter.ts';
import type { ModelRouter } from './providers/model-router.ts';
import type { Store } from './store/store.ts';
import type { UsageMeter } from './usage/usage-meter.ts';

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
}


export interface GatewayDeps {
  store: Store;
  authenticator: KeyAuthenticator;
  router: ModelRouter;
  rateLimiter: RateLimiter;
  usage: UsageMeter;
  settings: GatewaySettings;
  lifecycle?: Lifecycle;
  /** Bounds the request bodies held in memory at once; absent = no bound (tests). */
  bodyBudget?: BodyBudget;
  logger?: Logger;
}
