// Headers every answer of the web context carries: no sniffing, no framing, a strict content
// policy, no caching of anything private, and HSTS when the operator turned it on for an https site.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewaySettings } from '../gateway-deps.ts';

const CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'";

export function setSecurityHeaders(settings: GatewaySettings, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'same-origin');
  reply.header('x-frame-options', 'DENY');
  reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
  // Pages and JSON show one person's keys, usage, conversations and images: a shared cache or the
  // browser's back button must not keep them. Static assets set their own caching before this.
  if (!reply.hasHeader('cache-control') && !request.url.startsWith('/assets/')) reply.header('cache-control', 'no-store');
  if (settings.hstsMaxAge && settings.publicUrl.startsWith('https:')) reply.header('strict-transport-security', `max-age=${settings.hstsMaxAge}`);
}

/** The status a web answer gets for an error: fastify's errors say `statusCode`, the gateway's own `status`. */
export function webErrorStatus(error: { statusCode?: number; status?: unknown }): number {
  const status = error.statusCode ?? (typeof error.status === 'number' ? error.status : undefined);
  if (status === undefined) return 500;
  return (status >= 400 && status < 500) || status === 503 ? status : 500;
}
