// Upstream response headers that clients act on, copied onto the gateway's answer: when to retry
// (`retry-after`, `x-should-retry`), the provider's rate-limit state and its request id.
import type { ApiReply } from '../api-exchange.ts';
import type { ApiSurface } from '../../core/protocol/error-bodies.ts';

/** Understood by both protocols' clients, so they travel through translations too. */
const RETRY_HEADERS = ['retry-after', 'retry-after-ms', 'x-should-retry'];

const RATE_LIMIT_PREFIX: Record<ApiSurface, string> = { messages: 'anthropic-ratelimit-', openai: 'x-ratelimit-', gemini: 'x-ratelimit-' };

/**
 * Copies the upstream's retry hints always, and for an upstream of the client's own protocol its
 * rate-limit headers (the gateway's per-key ones, set earlier, win where the names meet) and its
 * request id: `request-id` for messages clients (the gateway's own id stays in `x-request-id`),
 * `x-upstream-request-id` for chat clients (whose `x-request-id` is the gateway's).
 */
export function relayUpstreamHeaders(reply: ApiReply, surface: ApiSurface, upstream: Record<string, string>, sameProtocol: boolean): void {
  for (const name of RETRY_HEADERS) {
    const value = upstream[name];
    if (value !== undefined) reply.header(name, value);
  }
  if (!sameProtocol) return;
  const prefix = RATE_LIMIT_PREFIX[surface];
  for (const name in upstream) {
    if (name.startsWith(prefix) && !reply.hasHeader(name)) reply.header(name, upstream[name]!);
  }
  if (surface === 'messages') {
    if (upstream['request-id']) reply.header('request-id', upstream['request-id']);
  } else if (upstream['x-request-id']) {
    reply.header('x-upstream-request-id', upstream['x-request-id']);
  }
}
