// Spec section 7 as data: status → where it is seen → condition → remedy, plus the cause codes each
// row can stand for and runnable commands. verify, diagnose and explain all read this one table.
// Placeholders: {base_url} {proxy_url} {token_var} {base_var}, filled by core/doctor/fill-template.ts.
import type { CauseCode } from './doctor/cause-codes.ts';

export interface HttpStatusRow {
  id: string;
  statuses: readonly number[];
  where: string;
  condition: string;
  /** The spec's remedy text. */
  remedy: string;
  causes: readonly CauseCode[];
  commands: readonly string[];
}

export const HTTP_STATUS_ROWS: readonly HttpStatusRow[] = [
  {
    id: '401-key',
    statuses: [401],
    where: '/v1/models and other calls',
    condition: 'Key wrong, copied incompletely, deleted, or Authorization not in the form `Bearer <API_KEY>`; or stray space, line break, typographic quote',
    remedy: 'Copy the key again and check the header',
    causes: ['KEY_REJECTED', 'KEY_MISSING', 'KEY_WHITESPACE', 'KEY_QUOTES'],
    commands: ['read -rs {token_var} && export {token_var}   # paste the key saved from {base_url}/keys', 'gwctl verify'],
  },
  {
    id: '401-proxy',
    statuses: [401],
    where: 'Client through the local proxy',
    condition: 'Token missing in the client environment, or upstream left at its default so the request bypasses this service',
    remedy: 'Supply the credential; set CACHE_FIX_PROXY_UPSTREAM to {base_url}',
    causes: ['TOKEN_MISSING_IN_SHELL', 'PROXY_UPSTREAM_DEFAULT', 'PROXY_UPSTREAM_MISMATCH', 'BASE_URL_PINNED_IN_SETTINGS'],
    commands: ['export CACHE_FIX_PROXY_UPSTREAM={base_url}', 'cache-fix-proxy install-service --force', 'gwctl diagnose --status 401'],
  },
  {
    id: '401-direct',
    statuses: [401],
    where: 'Direct fallback branch',
    condition: 'Clean shell without the token',
    remedy: 'Supply the credential (missing authentication, not a service fault)',
    causes: ['TOKEN_MISSING_IN_SHELL'],
    commands: ['read -rs {token_var} && export {token_var}', 'gwctl start'],
  },
  {
    id: '403',
    statuses: [403],
    where: 'Via proxy or direct',
    condition: 'Authentication problem',
    remedy: 'Check the credential and upstream match',
    causes: ['AUTH_FORBIDDEN', 'PROXY_UPSTREAM_MISMATCH'],
    commands: ['gwctl verify', 'gwctl diagnose --status 403'],
  },
  {
    id: '404-models',
    statuses: [404],
    where: '/v1/models',
    condition: 'URL written wrongly',
    remedy: 'Use {base_url}/v1/models',
    causes: ['URL_NOT_FOUND', 'URL_MISSING_V1'],
    commands: ['gwctl verify --base-url {base_url}'],
  },
  {
    id: '404-messages',
    statuses: [404],
    where: 'Messages-protocol client',
    condition: 'Base address carries /v1, producing /v1/v1/messages',
    remedy: 'Use the address without /v1',
    causes: ['URL_DOUBLE_V1'],
    commands: ['export {base_var}={base_url}', 'gwctl start', 'gwctl verify --base-url {base_url}'],
  },
  {
    id: '429',
    statuses: [429],
    where: 'Any',
    condition: 'Quota or rate limiting',
    remedy: 'Not further described',
    causes: ['RATE_LIMITED'],
    commands: ['gwctl verify   # again after the Retry-After interval'],
  },
  {
    id: '5xx',
    statuses: [502, 503],
    where: 'Via proxy or upstream',
    condition: 'Proxy or upstream failure',
    remedy: 'Start directly to tell them apart',
    causes: ['PROXY_FAULT', 'UPSTREAM_FAULT'],
    commands: ['gwctl diagnose --status 502', 'gwctl start   # goes direct when the proxy is not healthy'],
  },
  {
    id: '503-health',
    statuses: [503],
    where: 'GET /health on the local proxy',
    condition: 'Extension failed to load (body status = degraded)',
    remedy: 'Restart proxy, check logs, fall back to direct start if persistent',
    causes: ['PROXY_DEGRADED'],
    commands: [
      'systemctl --user restart cache-fix-proxy   # macOS: launchctl kickstart -k gui/$(id -u)/com.cnighswonger.cache-fix-proxy',
      'journalctl --user -u cache-fix-proxy -n 50',
      'curl -s {proxy_url}/health',
      'gwctl start',
    ],
  },
];
