import { VERSION } from '../version.ts';

export function helpText(): string {
  return `cache-fix-proxy ${VERSION} — local cache-stabilising proxy for messages-API clients (loopback only)

Usage:
  cache-fix-proxy server               run the proxy in the foreground (verify here first)
  cache-fix-proxy install-service [--force]
                                       write a user service (systemd on Linux/WSL, launchd on macOS);
                                       --force regenerates it after the upstream, port or debug changed
  cache-fix-proxy uninstall-service    stop and remove that service
  cache-fix-proxy healthcheck [--restart-unit <unit>]
                                       exit 0 when /health answers 200 (used by the systemd timer)
  cache-fix-proxy --version | --help

Then point the client at it: ANTHROPIC_BASE_URL=http://127.0.0.1:9801 (no /v1).
Endpoints: GET /health (200 ok, 503 degraded), POST /v1/messages[/count_tokens].

Environment:
  CACHE_FIX_PROXY_PORT       port on 127.0.0.1 (default 9801)
  CACHE_FIX_PROXY_BIND       loopback address (default 127.0.0.1; anything else is refused)
  CACHE_FIX_PROXY_UPSTREAM   upstream root, without /v1 (default https://api.anthropic.com);
                             for a gateway key set it to the gateway's root address
  CACHE_FIX_PROXY_TIMEOUT    upstream inactivity timeout in ms (default 600000); answered 504
  CACHE_FIX_PROXY_MAX_EVENT_BYTES    largest single upstream stream event (default 16777216); a
                             longer one ends the stream with an error event
  CACHE_FIX_PROXY_MAX_COLLECT_BYTES  largest answer read whole for extensions (default 16777216);
                             a larger one passes through untouched, without those extensions
  CACHE_FIX_DEBUG=1          append a debug log to ~/.claude/cache-fix-debug.log (CACHE_FIX_DEBUG_LOG).
                             It records method, path, status, timings, byte counts, session id and
                             header names and values. Values of credential-looking headers
                             (authorization, x-api-key, api-key, x-goog-api-key, cookie, set-cookie,
                             any name with auth, token, secret, password, signature or credential)
                             and of such query parameters (key, api_key, token, sig, …) are replaced
                             by [REDACTED]. It never records request or response bodies. Other
                             headers (e.g. user-agent) are written as sent. Printed upstream URLs
                             never show a user name or password.
  CACHE_FIX_HOT_RELOAD=on    reload extensions when their files change (default off; restart instead)
  CACHE_FIX_OAUTH_REFRESH    default off: the proxy never reads or writes ~/.claude/.credentials.json
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY, CACHE_FIX_PROXY_CA_FILE (extra CA, PEM),
  CACHE_FIX_PROXY_REJECT_UNAUTHORIZED=0 (disables TLS verification; avoid)
  CACHE_FIX_EXTENSIONS_CONFIG  extensions.json ({"<name>": {"enabled": bool, "order": n}})
  CACHE_FIX_EXTENSIONS_DIR     directory of extra *.mjs extensions
  CACHE_FIX_THINKING_SANITIZE  v1 (default) | off | v2
  CACHE_FIX_AUTO_1M_GUARD      warn (default) | strip | off
  CACHE_FIX_BOOTSTRAP_MODE     audit (default) | block | allowlist
  CACHE_FIX_TTL_MAIN, CACHE_FIX_TTL_SUBAGENT   1h (default) | 5m | none

Cache observations are written to ~/.claude/quota-status/ (account.json, sessions/<id>.json).
They report hit rate and cache read/create tokens separately; they are not a bill and promise no saving.
`;
}
