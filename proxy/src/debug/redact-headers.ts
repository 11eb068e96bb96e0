import type { HeaderMap } from '../transforms/types.ts';

/**
 * Names that carry a credential, whatever the vendor calls it: authorization, proxy-authorization,
 * x-api-key, api-key, x-goog-api-key, x-auth-token, cookie, set-cookie, x-amz-security-token, …
 */
const SECRET_NAME = /auth|api[-_]?key|token|secret|passw|cookie|signature|credential/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Header names stay visible (they help diagnose auth mix-ups); secret values never reach the log. */
export function redactHeaders(headers: HeaderMap | Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = isSecretName(name) ? '[REDACTED]' : value;
  }
  return out;
}
