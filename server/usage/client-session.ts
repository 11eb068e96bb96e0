// The client session a request belongs to, from the header its client sends for attribution
// (coding agents send one per session). Only an id-like value is kept; anything else is ignored.
import type { IncomingHttpHeaders } from 'node:http';

// The Claude Code CLI's header, a generic one, and the Codex CLI's (`session-id`, also sent as thread-id).
const SESSION_HEADERS = ['x-claude-code-session-id', 'x-session-id', 'session-id'];
const SESSION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function clientSessionId(headers: IncomingHttpHeaders): string | undefined {
  for (const name of SESSION_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string' && SESSION_ID.test(value)) return value;
  }
  return undefined;
}
