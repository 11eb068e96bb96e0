// `--trust-proxy`: which reverse proxies in front of the gateway may say who the client is. Off by
// default: without it X-Forwarded-For is ignored (anyone could write it), and behind a proxy every
// request seems to come from the proxy's address.
import { isIP } from 'node:net';
import type { TrustProxy } from '../gateway-deps.ts';

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * A hop count (`1`: the nearest proxy's X-Forwarded-For entry is the client) or a comma-separated
 * list of addresses, CIDR ranges and the names loopback, linklocal, uniquelocal. Returns the
 * problem as text when the value is not one of those.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy | undefined | string {
  if (raw === undefined || raw.trim() === '' || raw.trim() === 'off') return undefined;
  const text = raw.trim();
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops >= 1 && hops <= 16 ? hops : `--trust-proxy hop count must be from 1 to 16, got ${text}.`;
  }
  const entries = text.split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    if (NAMED_RANGES.has(entry)) continue;
    const [address, bits, ...rest] = entry.split('/');
    const family = isIP(address ?? '');
    const maxBits = family === 6 ? 128 : 32;
    if (family === 0 || rest.length > 0 || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= maxBits))) {
      return `--trust-proxy takes a hop count or addresses/ranges (e.g. 10.0.0.5,192.168.0.0/16,loopback), got "${entry}".`;
    }
  }
  return entries.length > 0 ? entries : undefined;
}
