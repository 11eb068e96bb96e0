/**
 * Joins the configured upstream root and the client's raw path and query. The root's own path is
 * kept (a relay mounted under /anthropic stays under /anthropic), and the client's path is not
 * re-encoded, so the upstream sees exactly what the client asked for.
 */
export function upstreamTarget(root: URL, rawPathAndQuery: string): URL {
  const basePath = root.pathname === '/' ? '' : root.pathname.replace(/\/+$/, '');
  const rest = rawPathAndQuery.startsWith('/') ? rawPathAndQuery : `/${rawPathAndQuery}`;
  return new URL(`${root.origin}${basePath}${rest}`);
}

export function pathAndQuery(url: URL): string {
  return `${url.pathname}${url.search}`;
}

/** URL.hostname keeps the brackets of an IPv6 literal; sockets want the bare address. */
export function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

export function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}
