import { isIPv4 } from 'node:net';

/**
 * The proxy forwards the user's credentials unchanged, so anything but loopback would hand them
 * to whoever can reach the port (spec 4.4). `localhost` is accepted but pinned to 127.0.0.1 so a
 * resolver returning a public address cannot widen the bind.
 */
export function normaliseLoopback(bind: string): string | null {
  const value = bind.trim().toLowerCase();
  if (value === 'localhost') return '127.0.0.1';
  if (value === '::1' || value === '[::1]') return '::1';
  if (isIPv4(value) && value.startsWith('127.')) return value;
  return null;
}
