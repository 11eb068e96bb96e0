/**
 * curl's NO_PROXY rules: `*` matches everything; `example.com` matches the host and its
 * subdomains; `.example.com` only subdomains; an entry may carry `:port`.
 */
export function bypassesProxy(hostname: string, port: number, noProxy: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  for (const rawEntry of noProxy.split(/[\s,]+/)) {
    let entry = rawEntry.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    const portMatch = /^(.*):(\d+)$/.exec(entry);
    if (portMatch && !entry.includes(']') && portMatch[1].includes(':') === false) {
      if (Number(portMatch[2]) !== port) continue;
      entry = portMatch[1];
    }
    entry = entry.replace(/^\[(.*)\]$/, '$1').replace(/^\*\./, '.');
    if (entry.startsWith('.')) {
      if (host.endsWith(entry)) return true;
    } else if (host === entry || host.endsWith(`.${entry}`)) {
      return true;
    }
  }
  return false;
}
