// Compares base addresses the way a client would use them: scheme, host, port and path, ignoring
// trailing slashes, letter case of the host and a default port.

export function sameAddress(a: string | undefined | null, b: string | undefined | null): boolean {
  if (!a || !b) return false;
  const norm = (value: string): string => {
    try {
      const url = new URL(value.trim());
      return `${url.protocol}//${url.host.toLowerCase()}${url.pathname.replace(/\/+$/, '')}`;
    } catch {
      return value.trim().replace(/\/+$/, '');
    }
  };
  return norm(a) === norm(b);
}
