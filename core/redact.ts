// Masking of secrets for every output path: logs, CLI text, JSON, pages.

const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'api-key', 'cookie', 'set-cookie', 'proxy-authorization']);

/** `sk-abc…wxyz` style hint: the prefix and the last four characters, never more. */
export function maskKey(value: string | undefined | null): string {
  if (!value) return '(none)';
  const trimmed = value.trim();
  const prefix = trimmed.startsWith('sk-') ? 'sk-' : '';
  const tail = trimmed.length >= 12 ? trimmed.slice(-4) : '';
  return `${prefix}…${tail}`;
}

/**
 * The text with every occurrence of a credential replaced by its mask: answers sometimes echo the
 * key that was sent (an upstream's "invalid x-api-key sk-…"), and nothing may print it. Values too
 * short to be a credential are left alone.
 */
export function maskEchoed(text: string, secret: string | undefined): string {
  const value = secret?.trim();
  if (!value || value.length < 8 || !text.includes(value)) return text;
  return text.split(value).join(maskKey(value));
}

/** A copy of the headers with credential values replaced by a mask. */
export function redactHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? '[redacted]' : value;
  }
  return out;
}

export const REDACTED_HEADER_NAMES = [...SECRET_HEADERS];
