// The error table as data: status → where it is seen → condition → the cause codes each row can
// stand for. The remedies and commands are the causes' own, from the cause catalogue
// (core/causes/catalogue.ts); a row with several causes adds only how to tell them apart. verify,
// diagnose and explain all read this one table, so its texts must stand alone.
// Placeholders: {base_url} {proxy_url} {token_var} {base_var}, filled by core/doctor/fill-template.ts.
import { causeEntry, type CauseCode } from './causes/catalogue.ts';

export interface HttpStatusRow {
  id: string;
  statuses: readonly number[];
  where: string;
  condition: string;
  /** What to do, in words: how to tell the causes apart, then the remedy of each cause it names. */
  remedy: string;
  causes: readonly CauseCode[];
  commands: readonly string[];
}

interface RowSource {
  id: string;
  statuses: readonly number[];
  where: string;
  condition: string;
  causes: readonly CauseCode[];
  /** For a row whose causes need telling apart: how, in words, with the commands that do it. */
  tellApart?: { text: string; commands: readonly string[] };
  /** Whose remedies the row gives, each labelled when there are several; default: the first cause's. */
  remedies?: ReadonlyArray<{ cause: CauseCode; label: string }>;
}

/** "Supply the …" → "supply the …" after a label; a leading acronym or name keeps its case. */
function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}

function rowOf(source: RowSource): HttpStatusRow {
  const remedies = source.remedies ?? [{ cause: source.causes[0]!, label: '' }];
  const words = remedies.map(({ cause, label }) => (label ? `${label}: ${lowerFirst(causeEntry(cause).userRemedy)}` : causeEntry(cause).userRemedy));
  const commands = [...(source.tellApart?.commands ?? []), ...remedies.flatMap(({ cause }) => causeEntry(cause).commands)];
  return {
    id: source.id,
    statuses: source.statuses,
    where: source.where,
    condition: source.condition,
    remedy: [source.tellApart?.text, ...words].filter(Boolean).join(' '),
    causes: source.causes,
    commands: [...new Set(commands)],
  };
}

const SOURCES: readonly RowSource[] = [
  {
    id: '400',
    statuses: [400],
    where: 'Any request, e.g. POST /v1/messages',
    condition: 'The service or its upstream refused the request as sent: a field, header, model or value it does not accept. Its error message names what.',
    causes: ['REQUEST_REJECTED', 'MODEL_NOT_AVAILABLE'],
  },
  {
    id: '401-key',
    statuses: [401],
    where: '/v1/models and other calls',
    condition: 'The key is wrong, copied incompletely or deleted, or the header is not `Authorization: Bearer <API_KEY>`; or a stray space, line break or typographic quote is in the value',
    causes: ['KEY_REJECTED', 'KEY_MISSING', 'KEY_WHITESPACE', 'KEY_QUOTES', 'KEY_DELETED', 'KEY_UNKNOWN', 'KEY_EXPIRED', 'USER_DISABLED'],
  },
  {
    id: '401-proxy',
    statuses: [401],
    where: 'Client through the local proxy',
    condition: 'Token missing in the client environment, or the proxy upstream left at its default so the request bypasses this service',
    causes: ['TOKEN_MISSING_IN_SHELL', 'PROXY_UPSTREAM_DEFAULT', 'PROXY_UPSTREAM_MISMATCH', 'BASE_URL_PINNED_IN_SETTINGS'],
    remedies: [
      { cause: 'TOKEN_MISSING_IN_SHELL', label: 'Token missing' },
      { cause: 'PROXY_UPSTREAM_DEFAULT', label: 'Upstream left at its default' },
    ],
  },
  {
    id: '401-direct',
    statuses: [401],
    where: 'Direct fallback branch',
    condition: 'Clean shell without the token',
    causes: ['TOKEN_MISSING_IN_SHELL'],
  },
  {
    id: '403',
    statuses: [403],
    where: 'Via proxy or direct',
    condition: 'The credential is recognised but not allowed here',
    causes: ['AUTH_FORBIDDEN', 'PROXY_UPSTREAM_MISMATCH', 'MODEL_NOT_ALLOWED'],
  },
  {
    id: '404-models',
    statuses: [404],
    where: '/v1/models',
    condition: 'URL written wrongly',
    causes: ['URL_NOT_FOUND', 'URL_MISSING_V1', 'URL_WRONG_PATH'],
  },
  {
    id: '404-messages',
    statuses: [404],
    where: 'Messages-protocol client',
    condition: 'Base address carries /v1, producing /v1/v1/messages',
    causes: ['URL_DOUBLE_V1'],
  },
  {
    id: '404-model',
    statuses: [404],
    where: 'POST /v1/messages',
    condition: 'The model the client asks for is not served to this key (the Claude Code CLI asks for claude-… models unless told otherwise)',
    causes: ['MODEL_NOT_AVAILABLE', 'MODEL_UNKNOWN'],
  },
  {
    id: '413',
    statuses: [413],
    where: 'Any request with a body',
    condition: 'The request body is larger than the service accepts (a long conversation, or large files or images pasted in)',
    causes: ['REQUEST_TOO_LARGE'],
  },
  {
    id: '429',
    statuses: [429],
    where: 'Any',
    condition: "Too many requests per minute (this service's per-key rate limit, or its upstream account's), or a used-up budget of the key or its account (quota)",
    causes: ['RATE_LIMITED', 'QUOTA_EXCEEDED'],
    tellApart: {
      text: 'The error code of the answer tells them apart: quota_exceeded (with x-should-retry: false) is a used-up budget, anything else a rate limit.',
      commands: ['gwctl diagnose --status 429   # which one, and who answered'],
    },
    remedies: [
      { cause: 'RATE_LIMITED', label: 'Rate limit' },
      { cause: 'QUOTA_EXCEEDED', label: 'Used-up budget' },
    ],
  },
  {
    id: '500',
    statuses: [500],
    where: 'Any',
    condition: "An internal error of the service or its upstream (or the upstream refused the service's own credential)",
    causes: ['UPSTREAM_FAULT', 'UPSTREAM_AUTH'],
  },
  {
    id: '5xx',
    statuses: [502, 503],
    where: 'Via proxy or upstream',
    condition: 'Proxy or upstream failure',
    causes: ['PROXY_FAULT', 'UPSTREAM_FAULT'],
    tellApart: {
      text: 'Start directly to tell them apart: if the direct route works, the proxy is at fault; if the direct route fails too, the service or its upstream is.',
      commands: ['gwctl diagnose --status 502', 'gwctl start   # goes direct when the proxy is not healthy'],
    },
    remedies: [
      { cause: 'PROXY_FAULT', label: 'Proxy at fault' },
      { cause: 'UPSTREAM_FAULT', label: 'Service or upstream at fault' },
    ],
  },
  {
    id: '503-health',
    statuses: [503],
    where: 'GET /health on the local proxy',
    condition: 'Extension failed to load (body status = degraded)',
    causes: ['PROXY_DEGRADED'],
  },
  {
    id: '504',
    statuses: [504],
    where: 'Via proxy or upstream',
    condition: 'The service or its upstream did not answer in time (gateway timeout)',
    causes: ['UPSTREAM_FAULT', 'PROXY_FAULT'],
    tellApart: {
      text: 'A very long request may exceed the time limit: split the work or compact the conversation. If short requests time out too, it is not the request.',
      commands: ['gwctl diagnose --status 504'],
    },
  },
  {
    id: '529',
    statuses: [529],
    where: 'Any, from the upstream',
    condition: 'The upstream is overloaded: busy, not broken',
    causes: ['UPSTREAM_OVERLOADED'],
  },
];

export const HTTP_STATUS_ROWS: readonly HttpStatusRow[] = SOURCES.map(rowOf);
