// Calls of the gateway's API that the toolkit makes: the model list with a bearer key.
import { maskEchoed } from '../redact.ts';
import type { HttpGet, HttpOutcome } from './http-get.ts';

export interface ModelsCall {
  /** The URL that was requested (never carries the key). */
  url: string;
  outcome: HttpOutcome;
  /** Model ids when the answer was a model list. */
  models?: string[];
  /** `error.code` / `error.type` / `error.message` of an error body, when there is one. */
  errorCode?: string;
  errorMessage?: string;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** GET {url} with `Authorization: Bearer <key>`; the caller builds the URL for the route it checks. */
export async function fetchModels(http: HttpGet, url: string, key: string, timeoutMs: number): Promise<ModelsCall> {
  const answer = await http({ url, headers: { authorization: `Bearer ${key}`, accept: 'application/json' }, timeoutMs });
  // An answer that echoes the key is kept with the key masked, so no report can print it.
  const outcome: HttpOutcome = answer.kind === 'response' ? { ...answer, body: maskEchoed(answer.body, key) } : answer;
  const call: ModelsCall = { url, outcome };
  if (outcome.kind !== 'response') return call;
  const body = parseJson(outcome.body) as { data?: unknown; error?: { code?: unknown; type?: unknown; message?: unknown } } | undefined;
  if (outcome.status === 200 && body && Array.isArray(body.data)) {
    call.models = body.data.map((m) => String((m as { id?: unknown })?.id ?? '?'));
  }
  const error = body?.error;
  if (error && typeof error === 'object') {
    if (typeof error.code === 'string') call.errorCode = error.code;
    else if (typeof error.type === 'string') call.errorCode = error.type;
    if (typeof error.message === 'string') call.errorMessage = error.message;
  }
  return call;
}
