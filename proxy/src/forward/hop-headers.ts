import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { HeaderMap } from '../transforms/types.ts';

// Headers that describe one connection, not the message (RFC 9110 section 7.6.1).
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'te', 'upgrade', 'trailer', 'proxy-connection']);

/** Header names the sender listed in `Connection` are hop-by-hop too. */
function connectionListed(headers: HeaderMap): Set<string> {
  const value = headers.connection;
  const text = Array.isArray(value) ? value.join(',') : value ?? '';
  return new Set(text.split(',').map((name) => name.trim().toLowerCase()).filter((name) => name !== ''));
}

export function withoutHopByHop(headers: HeaderMap): OutgoingHttpHeaders {
  const listed = connectionListed(headers);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || listed.has(name)) continue;
    out[name] = value;
  }
  return out;
}

// Auth travels byte for byte (spec 5.5): an extension cannot alter or drop it.
const AUTH_HEADERS = ['authorization', 'x-api-key'];

/**
 * What goes upstream: the extension-edited headers minus hop-by-hop and proxy-* ones, the client's
 * own auth values, Host of the upstream, identity encoding (the relay must read SSE as text), and
 * a Content-Length equal to the body actually sent.
 */
export function upstreamRequestHeaders(
  edited: HeaderMap,
  original: IncomingHttpHeaders,
  upstreamHost: string,
  bodyLength: number,
): OutgoingHttpHeaders {
  const out = withoutHopByHop(edited);
  for (const name of Object.keys(out)) if (name.startsWith('proxy-')) delete out[name];
  for (const name of AUTH_HEADERS) {
    if (original[name] !== undefined) out[name] = original[name];
    else delete out[name];
  }
  delete out.expect;
  out.host = upstreamHost;
  out['accept-encoding'] = 'identity';
  out['content-length'] = String(bodyLength);
  return out;
}

/** Response headers for the client; the caller decides on Content-Length. */
export function clientResponseHeaders(upstream: IncomingHttpHeaders): OutgoingHttpHeaders {
  return withoutHopByHop(upstream);
}
