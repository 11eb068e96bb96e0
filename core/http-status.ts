// The error table as data: status → where it is seen → condition → remedy, plus the cause codes each
// row can stand for and runnable commands. verify, diagnose and explain all read this one table, so
// its texts must stand alone: users read them without any other document.
// Placeholders: {base_url} {proxy_url} {token_var} {base_var}, filled by core/doctor/fill-template.ts.
import type { CauseCode } from './doctor/cause-codes.ts';

export interface HttpStatusRow {
  id: string;
  statuses: readonly number[];
  where: string;
  condition: string;
  /** What to do, in words. */
  remedy: string;
  causes: readonly CauseCode[];
  commands: readonly string[];
}

export const HTTP_STATUS_ROWS: readonly HttpStatusRow[] = [
  {
    id: '400',
    statuses: [400],
    where: 'Any request, e.g. POST /v1/messages',
    condition: 'The service or its upstream refused the request as sent: a field, header, model or value it does not accept. Its error message names what.',
    remedy:
      'Read the error message: `gwctl diagnose` sends one short real request and shows the message and who answered. If it names the model, pick one the service lists (`gwctl verify` shows them) and set it with `gwctl config set client.model <id>`. If it names a field, block type or beta header, the upstream does not accept what this client version sends: ask the service operator which client versions it supports, or update the client',
    causes: ['REQUEST_REJECTED', 'MODEL_NOT_AVAILABLE'],
    commands: ['gwctl diagnose   # one short real request; shows the message and who answered', 'gwctl verify   # lists the models this key may use', 'gwctl config set client.model <model id>'],
  },
  {
    id: '401-key',
    statuses: [401],
    where: '/v1/models and other calls',
    condition: 'The key is wrong, copied incompletely or deleted, or the header is not `Authorization: Bearer <API_KEY>`; or a stray space, line break or typographic quote is in the value',
    remedy:
      'A deleted key is gone for good: create a new one on {base_url}/keys and export it. Otherwise copy the key again from where you saved it (a password manager), export it bare for this shell, and check it with `gwctl verify`',
    causes: ['KEY_REJECTED', 'KEY_MISSING', 'KEY_WHITESPACE', 'KEY_QUOTES'],
    commands: ['read -rs {token_var} && export {token_var}   # paste the key (a new one from {base_url}/keys if it was deleted)', 'gwctl verify'],
  },
  {
    id: '401-proxy',
    statuses: [401],
    where: 'Client through the local proxy',
    condition: 'Token missing in the client environment, or the proxy upstream left at its default so the request bypasses this service',
    remedy:
      "Supply the credential in the shell that starts the client, and set CACHE_FIX_PROXY_UPSTREAM to {base_url} where the proxy runs: a proxy left at its default sends this service's key to the vendor, which rejects it",
    causes: ['TOKEN_MISSING_IN_SHELL', 'PROXY_UPSTREAM_DEFAULT', 'PROXY_UPSTREAM_MISMATCH', 'BASE_URL_PINNED_IN_SETTINGS'],
    commands: ['export CACHE_FIX_PROXY_UPSTREAM={base_url}', 'cache-fix-proxy install-service --force', 'gwctl diagnose --status 401'],
  },
  {
    id: '401-direct',
    statuses: [401],
    where: 'Direct fallback branch',
    condition: 'Clean shell without the token',
    remedy: 'Supply the credential in the shell that starts the client (this is missing authentication, not a fault of the service)',
    causes: ['TOKEN_MISSING_IN_SHELL'],
    commands: ['read -rs {token_var} && export {token_var}', 'gwctl start'],
  },
  {
    id: '403',
    statuses: [403],
    where: 'Via proxy or direct',
    condition: 'The credential is recognised but not allowed here',
    remedy:
      "Check that the credential matches where the request goes: a key of this service works only against {base_url} (directly, or through a proxy whose CACHE_FIX_PROXY_UPSTREAM is {base_url}); a vendor key only against the vendor. If it matches, the key lacks permission for this model or account: ask the service operator",
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
    remedy: 'Use the address without /v1 ({base_url}): the client appends /v1/messages itself',
    causes: ['URL_DOUBLE_V1'],
    commands: ['export {base_var}={base_url}', 'gwctl start', 'gwctl verify --base-url {base_url}'],
  },
  {
    id: '404-model',
    statuses: [404],
    where: 'POST /v1/messages',
    condition: 'The model the client asks for is not served to this key (the Claude Code CLI asks for claude-… models unless told otherwise)',
    remedy:
      "Pick a model the service lists (`gwctl verify` shows them) and let gwctl start set it: `gwctl config set client.model <id>`. Without that setting, gwctl start picks a served text model by itself when the service lists none of the client's own",
    causes: ['MODEL_NOT_AVAILABLE'],
    commands: ['gwctl verify   # lists the models this key may use', 'gwctl config set client.model <model id>', 'gwctl start'],
  },
  {
    id: '413',
    statuses: [413],
    where: 'Any request with a body',
    condition: 'The request body is larger than the service accepts (a long conversation, or large files or images pasted in)',
    remedy:
      'Make the request smaller: start a new session or compact the conversation (/compact in the Claude Code CLI), and attach fewer or smaller files. The limit is set by the service operator (`gwctl serve --body-limit`); ask them if it must be raised',
    causes: ['REQUEST_TOO_LARGE'],
    commands: ['gwctl diagnose --status 413'],
  },
  {
    id: '429',
    statuses: [429],
    where: 'Any',
    condition: "Too many requests: this service's per-key rate limit, or the quota or rate limit of its upstream account",
    remedy:
      "Wait for the Retry-After interval the answer names, then retry; spread requests out. To tell the two apart: `gwctl diagnose --status 429` shows who answered. An answer naming an upstream provider (header x-gateway-provider) is the upstream account's quota: ask the service operator. One from the service itself is your key's rate limit: wait, or ask the operator for a higher limit",
    causes: ['RATE_LIMITED'],
    commands: ['gwctl diagnose --status 429   # who answered: the service or its upstream', 'gwctl verify   # again after the Retry-After interval'],
  },
  {
    id: '500',
    statuses: [500],
    where: 'Any',
    condition: 'An internal error of the service or its upstream',
    remedy: 'Retry once. If it repeats, note the time and the request-id header of the answer and report both to the service operator; nothing on this machine causes it',
    causes: ['UPSTREAM_FAULT'],
    commands: ['gwctl diagnose --status 500   # shows the request id of a fresh short request'],
  },
  {
    id: '5xx',
    statuses: [502, 503],
    where: 'Via proxy or upstream',
    condition: 'Proxy or upstream failure',
    remedy:
      'Start directly to tell them apart: if the direct route works, the proxy is at fault (check the address it forwards to and its log, then restart it); if the direct route fails too, the service or its upstream is (retry later and report the time to the service operator)',
    causes: ['PROXY_FAULT', 'UPSTREAM_FAULT'],
    commands: ['gwctl diagnose --status 502', 'gwctl start   # goes direct when the proxy is not healthy'],
  },
  {
    id: '503-health',
    statuses: [503],
    where: 'GET /health on the local proxy',
    condition: 'Extension failed to load (body status = degraded)',
    remedy: 'Restart the proxy and check its log; if it stays degraded, start clients directly (gwctl start does so by itself)',
    causes: ['PROXY_DEGRADED'],
    commands: [
      'systemctl --user restart cache-fix-proxy   # macOS: launchctl kickstart -k gui/$(id -u)/com.cnighswonger.cache-fix-proxy',
      'journalctl --user -u cache-fix-proxy -n 50',
      'curl -s {proxy_url}/health',
      'gwctl start',
    ],
  },
  {
    id: '504',
    statuses: [504],
    where: 'Via proxy or upstream',
    condition: 'The service or its upstream did not answer in time (gateway timeout)',
    remedy: 'Retry; a very long request may exceed the time limit, so split the work or compact the conversation. If short requests time out too, report the time to the service operator',
    causes: ['UPSTREAM_FAULT', 'PROXY_FAULT'],
    commands: ['gwctl diagnose --status 504'],
  },
  {
    id: '529',
    statuses: [529],
    where: 'Any, from the upstream',
    condition: 'The upstream is overloaded: busy, not broken',
    remedy:
      'Wait a little and retry; the client retries by itself a few times. If it lasts, use another model the service lists (`gwctl config set client.model <id>`), or ask the service operator whether another provider can take over',
    causes: ['UPSTREAM_OVERLOADED'],
    commands: ['gwctl diagnose --status 529', 'gwctl verify   # lists the models this key may use'],
  },
];
