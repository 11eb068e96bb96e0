// Error envelopes of the two API surfaces, so every route answers in the shape its clients parse.

export type ApiSurface = 'openai' | 'messages';

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

/** True when a parsed body already is an error envelope of the given surface. */
export function isErrorEnvelope(surface: ApiSurface, body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const record = body as Record<string, unknown>;
  const inner = record.error as Record<string, unknown> | undefined;
  if (!inner || typeof inner !== 'object' || typeof inner.message !== 'string') return false;
  // A messages-protocol envelope also has error.message; it is not an OpenAI envelope.
  return surface === 'messages' ? record.type === 'error' && typeof inner.type === 'string' : record.type !== 'error';
}
