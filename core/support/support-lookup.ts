// The Support screen's engine: a request id, a key (id, masked hint, fingerprint) or a support
// bundle file, looked up through the gateway's operator API with an operator token. The same
// verdicts as `gwctl admin request|key find|support` on the server machine, from anywhere the
// gateway is reachable. The token comes from GWCTL_OPERATOR_TOKEN and is never shown.
import { readFile } from 'node:fs/promises';
import type { HttpGet } from '../client/http-get.ts';
import type { HttpPost } from '../proxy/http-post.ts';
import type { KeyFindResult, RequestVerdict, SupportVerdict } from './support-documents.ts';

export const OPERATOR_TOKEN_VAR = 'GWCTL_OPERATOR_TOKEN';

export type SupportAnswer =
  | { kind: 'request'; verdict: RequestVerdict }
  | { kind: 'key'; result: KeyFindResult }
  | { kind: 'bundle'; file: string; verdict: SupportVerdict };

export interface SupportLookupDeps {
  baseUrl: string;
  token: string | undefined;
  http: HttpGet;
  post?: HttpPost;
  timeoutMs: number;
  /** Reads a bundle file (tests pass a fake). */
  read?: (path: string) => Promise<string>;
}

/** A failure with a remedy, as the screens show problems. */
export class SupportLookupError extends Error {
  override readonly name = 'SupportLookupError';
  constructor(
    message: string,
    readonly remedy: string,
  ) {
    super(message);
  }
}

export type QueryKind = 'request' | 'bundle' | 'key';

/** req_… is a request id; a path ending in .json (or holding a slash) is a bundle file; anything else names a key. */
export function queryKind(query: string): QueryKind {
  if (/^req_[A-Za-z0-9]+$/.test(query)) return 'request';
  if (/\.json$/i.test(query) || query.includes('/')) return 'bundle';
  return 'key';
}

function errorMessage(body: string): string | undefined {
  try {
    const message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

function answerOf<T>(outcome: Awaited<ReturnType<HttpGet>>, url: string): T {
  if (outcome.kind === 'error') {
    throw new SupportLookupError(`No answer from ${url}: ${outcome.failure.message}.`, 'Check the service address (Settings: baseUrl) and that the gateway runs.');
  }
  if (outcome.status === 401) {
    throw new SupportLookupError(`The gateway refused the operator token (401): ${errorMessage(outcome.body) ?? 'unknown or revoked'}.`, `Create one on the gateway with \`gwctl admin token create --name support\` and put it in ${OPERATOR_TOKEN_VAR}.`);
  }
  if (outcome.status === 404 && !/^\s*\{/.test(outcome.body)) {
    throw new SupportLookupError(`${url} answered 404: this address has no operator API.`, 'Set baseUrl to the gateway\'s address (without /v1).');
  }
  if (outcome.status >= 400) {
    throw new SupportLookupError(errorMessage(outcome.body) ?? `The gateway answered ${outcome.status}.`, 'Check what you typed: a request id (req_…), a key id, a masked key (sk-…a1b2) or a bundle file.');
  }
  try {
    return JSON.parse(outcome.body) as T;
  } catch {
    throw new SupportLookupError(`${url} answered ${outcome.status} with something that is not JSON.`, 'Set baseUrl to the gateway\'s address (without /v1).');
  }
}

export async function lookupSupport(rawQuery: string, deps: SupportLookupDeps): Promise<SupportAnswer> {
  const query = rawQuery.trim();
  if (!query) throw new SupportLookupError('Nothing to look up.', 'Type a request id (req_…), a key id, a masked key (sk-…a1b2), a fingerprint or the path of a support bundle.');
  if (!deps.token) {
    throw new SupportLookupError(`${OPERATOR_TOKEN_VAR} is not set: looking requests up needs an operator token.`, `On the gateway: \`gwctl admin token create --name support\`; then \`read -rs ${OPERATOR_TOKEN_VAR} && export ${OPERATOR_TOKEN_VAR}\` here.`);
  }
  const base = deps.baseUrl.replace(/\/+$/, '');
  const headers = { authorization: `Bearer ${deps.token}`, accept: 'application/json' };
  const kind = queryKind(query);
  if (kind === 'request') {
    const url = `${base}/admin/api/v1/requests/${encodeURIComponent(query)}`;
    return { kind, verdict: answerOf<RequestVerdict>(await deps.http({ url, headers, timeoutMs: deps.timeoutMs }), url) };
  }
  if (kind === 'key') {
    const url = `${base}/admin/api/v1/keys/find?q=${encodeURIComponent(query)}`;
    return { kind, result: answerOf<KeyFindResult>(await deps.http({ url, headers, timeoutMs: deps.timeoutMs }), url) };
  }
  if (!deps.post) throw new SupportLookupError('This build cannot send the bundle.', 'Use `gwctl admin support FILE` on the gateway machine.');
  let body: string;
  try {
    body = await (deps.read ?? ((path) => readFile(path, 'utf8')))(query);
  } catch (error) {
    throw new SupportLookupError(`Cannot read ${query}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`, 'Give the path of the file `gwctl diagnose --report FILE` wrote.');
  }
  const url = `${base}/admin/api/v1/support`;
  const outcome = await deps.post({ url, headers, body, timeoutMs: deps.timeoutMs });
  const plain = outcome.kind === 'error' ? outcome : { kind: 'response' as const, status: outcome.status, headers: outcome.headers, body: outcome.body };
  return { kind, file: query, verdict: answerOf<SupportVerdict>(plain, url) };
}
