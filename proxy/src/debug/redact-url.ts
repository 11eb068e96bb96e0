import { isSecretName } from './redact-headers.ts';

/** Credentials in a URL (`https://user:password@host`) are never printed. */
export function maskUrlCredentials(url: URL): string {
  if (url.username === '' && url.password === '') return url.href;
  const copy = new URL(url.href);
  copy.username = '***';
  copy.password = '';
  return copy.href;
}

/**
 * A request path for the log: query parameters whose names look like a credential (`key`,
 * `api_key`, `token`, `sig`, …) keep their name and lose their value.
 */
export function redactPath(rawPath: string | undefined): string {
  const path = rawPath ?? '/';
  const queryAt = path.indexOf('?');
  if (queryAt < 0) return path;
  const query = path
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed escape: judge the name as written.
      }
      return eq >= 0 && (isSecretName(decoded) || /^(key|sig|code)$/i.test(decoded)) ? `${name}=[REDACTED]` : pair;
    })
    .join('&');
  return `${path.slice(0, queryAt)}?${query}`;
}
