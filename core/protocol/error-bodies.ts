// Error envelopes of the API surfaces, so every route answers in the shape its clients parse.

export type ApiSurface = 'openai' | 'messages' | 'gemini';

export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export interface MessagesErrorBody {
  type: 'error';
  error: { type: string; message: string };
  request_id?: string;
}

export function openAiErrorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

export function messagesErrorType(status: number): string {
  switch (status) {
    case 401:
      return 'authentication_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 529:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

export function openAiErrorBody(
  status: number,
  message: string,
  options: { code?: string | null; param?: string | null; type?: string } = {},
): OpenAiErrorBody {
  return {
    error: {
      message,
      type: options.type ?? openAiErrorType(status),
      param: options.param ?? null,
      code: options.code ?? null,
    },
  };
}

export function messagesErrorBody(status: number, message: string, requestId?: string): MessagesErrorBody {
  const body: MessagesErrorBody = { type: 'error', error: { type: messagesErrorType(status), message } };
  if (requestId) body.request_id = requestId;
  return body;
}

export interface GeminiErrorBody {
  error: { code: number; message: string; status: string; details?: Array<Record<string, unknown>> };
}

/** Google's canonical status name for an HTTP status, as Gemini's error bodies carry it. */
export function geminiErrorStatus(status: number): string {
  switch (status) {
    case 400:
      return 'INVALID_ARGUMENT';
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'PERMISSION_DENIED';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'ABORTED';
    case 413:
      return 'INVALID_ARGUMENT';
    case 429:
      return 'RESOURCE_EXHAUSTED';
    case 499:
      return 'CANCELLED';
    case 501:
      return 'UNIMPLEMENTED';
    case 503:
    case 529:
      return 'UNAVAILABLE';
    case 504:
      return 'DEADLINE_EXCEEDED';
    default:
      return status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION';
  }
}

/**
 * `retryAfterSeconds` becomes Google's RetryInfo detail, which Gemini clients obey: Gemini CLI waits
 * that long, and stops at once when it is over five minutes (a budget spent for the day) instead of
 * retrying for minutes.
 */
export function geminiErrorBody(status: number, message: string, retryAfterSeconds?: number): GeminiErrorBody {
  const body: GeminiErrorBody = { error: { code: status, message, status: geminiErrorStatus(status) } };
  if (retryAfterSeconds !== undefined && retryAfterSeconds > 0) {
    body.error.details = [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${Math.ceil(retryAfterSeconds)}s` }];
  }
  return body;
}

/** The error envelope of a surface: one place that knows the three shapes. */
export function errorBodyFor(
  surface: ApiSurface,
  status: number,
  message: string,
  options: { code?: string | null; param?: string | null; type?: string; requestId?: string; retryAfterSeconds?: number } = {},
): OpenAiErrorBody | MessagesErrorBody | GeminiErrorBody {
  if (surface === 'messages') return messagesErrorBody(status, message, options.requestId);
  if (surface === 'gemini') return geminiErrorBody(status, message, options.retryAfterSeconds);
  return openAiErrorBody(status, message, options);
}

/** True when a parsed body already is an error envelope of the given surface. */
export function isErrorEnvelope(surface: ApiSurface, body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const record = body as Record<string, unknown>;
  const inner = record.error as Record<string, unknown> | undefined;
  if (!inner || typeof inner !== 'object' || typeof inner.message !== 'string') return false;
  // A messages-protocol envelope also has error.message; it is not an OpenAI envelope.
  if (surface === 'messages') return record.type === 'error' && typeof inner.type === 'string';
  if (surface === 'gemini') return typeof inner.code === 'number' && typeof inner.status === 'string';
  return record.type !== 'error';
}
