import type { HeaderMap } from '../types.ts';
import { isObject } from '../../util/json-value.ts';

const SESSION_HEADERS = ['x-claude-code-session-id', 'x-session-id', 'x-anthropic-session-id'];

export function headerValue(headers: HeaderMap, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Claude Code names its session in a header; older clients only carry it inside
 * metadata.user_id (`…_session_<uuid>`), which is the fallback.
 */
export function sessionIdOf(headers: HeaderMap, body: unknown): string | null {
  for (const name of SESSION_HEADERS) {
    const value = headerValue(headers, name)?.trim();
    if (value) return value;
  }
  if (isObject(body) && isObject(body.metadata) && typeof body.metadata.user_id === 'string') {
    const match = /_session_([A-Za-z0-9-]{8,})/.exec(body.metadata.user_id);
    if (match) return match[1];
  }
  return null;
}
