import type { HeaderMap } from '../transforms/types.ts';

const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'cookie', 'set-cookie', 'proxy-authorization']);

/** Header names stay visible (they help diagnose auth mix-ups); secret values never reach the log. */
export function redactHeaders(headers: HeaderMap | Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? '[REDACTED]' : value;
  }
  return out;
}
