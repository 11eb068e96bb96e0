// Everything the two listeners share, built once by start.ts (or by a test).
import type { Logger } from 'pino';
import type { KeyAuthenticator } from './auth/key-authenticator.ts';
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
}

export interface GatewayDeps {
  store: Store;
  authenticator: KeyAuthenticator;
  router: ModelRouter;
  rateLimiter: RateLimiter;
  usage: UsageMeter;
  settings: GatewaySettings;
  logger?: Logger;
}
