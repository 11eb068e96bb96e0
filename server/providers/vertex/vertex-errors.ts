// Vertex AI's own error answers (Google's envelope: authentication, permissions, quota) for the
// protocol the route speaks. A refused or expired token, or a permission the account lacks, is the
// gateway's own credential failing: it becomes 401, which the gateway answers 502 naming the
// variable. Claude routes get the messages envelope; Gemini routes keep Google's, their own.
import { bufferedAnswer } from '../buffered-answer.ts';
import type { ProviderResponse } from '../provider.ts';

const MESSAGES_TYPE: Record<number, string> = { 400: 'invalid_request_error', 401: 'authentication_error', 404: 'not_found_error', 429: 'rate_limit_error', 503: 'overloaded_error', 529: 'overloaded_error' };

export function vertexErrorAnswer(status: number, headers: Record<string, string>, bytes: Buffer, protocol: 'messages' | 'gemini'): ProviderResponse {
  let parsed: { error?: { message?: unknown; status?: unknown; type?: unknown } } | undefined;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const mappedStatus = status === 403 ? 401 : status;
  const relayed: Record<string, string> = { 'x-should-retry': String(mappedStatus === 429 || mappedStatus >= 500) };
  if (headers['retry-after']) relayed['retry-after'] = headers['retry-after'];
  const google = parsed?.error && typeof parsed.error.status === 'string';
  if (!google || protocol === 'gemini') return bufferedAnswer(mappedStatus, relayed, bytes);
  const message = typeof parsed!.error!.message === 'string' ? parsed!.error!.message : bytes.toString('utf8').slice(0, 300);
  const body = { type: 'error', error: { type: MESSAGES_TYPE[mappedStatus] ?? (mappedStatus >= 500 ? 'api_error' : 'invalid_request_error'), message: `Vertex AI ${String(parsed!.error!.status)}: ${message}` } };
  return bufferedAnswer(mappedStatus, relayed, Buffer.from(JSON.stringify(body)));
}
