// The stable cause codes of every check and diagnosis. Scripts and support match on these names, so
// they never change meaning; the README section "Diagnosis cause codes" documents each one.

export const CAUSE_CODES = {
  OK: 'The check passed.',
  KEY_MISSING: 'No key in the variable that should carry it.',
  KEY_WHITESPACE: 'The key value contains a space, tab or line break (often from copying).',
  KEY_QUOTES: 'The key value is wrapped in quotes or contains typographic quotes.',
  KEY_PREFIX: 'The key does not start with `sk-` (a warning: keys of this service normally do).',
  KEY_REJECTED: 'The service answered 401: the key is wrong, incomplete or deleted.',
  URL_DOUBLE_V1: 'The base address carries /v1 and the client adds another: /v1/v1/… answers 404.',
  URL_MISSING_V1: 'A chat-completions or image base URL lacks the /v1 it must end with.',
  URL_NOT_FOUND: 'The address answered 404 (or something that is not this API): the URL is written wrongly.',
  URL_UNREACHABLE: 'No answer from the address: name not resolved, connection refused or timed out.',
  TLS_ERROR: 'The TLS handshake failed (certificate, or https spoken to a plain-http port).',
  RATE_LIMITED: 'The service answered 429: quota or rate limit.',
  UPSTREAM_FAULT: 'The service or its upstream answered 5xx (or stopped answering).',
  PROXY_DOWN: 'The local proxy does not answer its /health endpoint.',
  PROXY_DEGRADED: 'The local proxy answers /health with 503 degraded: an extension failed to load.',
  PROXY_FAULT: 'The request fails through the proxy while the direct route works: the proxy is at fault.',
  PROXY_UPSTREAM_DEFAULT: "The proxy's upstream is left at its default, so this service's key goes elsewhere (the classic 401).",
  PROXY_UPSTREAM_MISMATCH: "The proxy's upstream does not match the authentication path in use.",
  BASE_URL_NOT_PROXY: "The client's base-address variable is not the proxy address although the proxy route is meant.",
  BASE_URL_PINNED_IN_SETTINGS: 'A base address or credential is pinned in a client settings file or shell startup file.',
  TOKEN_MISSING_IN_SHELL: "The client's token variable is not set in this shell: the client would get 401 (missing authentication).",
  CLIENT_NOT_FOUND: 'The client command is not found on PATH (not installed, or installed elsewhere).',
  EXECUTION_PLANE_MISMATCH: 'Client and proxy do not run in the same environment (WSL with a Windows client).',
  AUTH_FORBIDDEN: 'The service answered 403: the credential does not match the upstream or lacks permission.',
  REQUEST_REJECTED: 'The service or its upstream answered 400: it refused the request itself (its message names what).',
  MODEL_NOT_AVAILABLE: 'The model the client asks for is not served to this key (or the gateway serves no text model).',
  REQUEST_TOO_LARGE: 'The service answered 413: the request body is larger than it accepts.',
  UPSTREAM_OVERLOADED: 'The upstream answered 529 (overloaded): it is busy, not broken; the request may be retried later.',
  FAILURE_NOT_REPRODUCED: 'The client failed, but every check passes now and the same short request gets a normal answer.',
} as const;

export type CauseCode = keyof typeof CAUSE_CODES;
