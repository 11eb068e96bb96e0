// How long the parts of a device sign-in live. Access tokens are short so a revocation that a
// client never hears about still ends soon; refresh tokens rotate on every use.
import type { GatewaySettings } from '../gateway-deps.ts';

export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 3600;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600_000;
export const DEVICE_CODE_TTL_MS = 600_000;
/** Seconds a client waits between polls of the token endpoint (RFC 8628 `interval`). */
export const POLL_INTERVAL_SECONDS = 5;
/** What RFC 8628 adds to the interval each time a client polls too fast. */
export const SLOW_DOWN_STEP_SECONDS = 5;

export function accessTokenTtlSeconds(settings: GatewaySettings): number {
  return settings.accessTokenTtlSeconds ?? DEFAULT_ACCESS_TOKEN_TTL_SECONDS;
}
