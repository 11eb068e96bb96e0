// AWS's error answers (and a stream's exception messages) in the messages protocol's envelope,
// with the status and retry hint that say what the client should do: throttling is a 429 to retry,
// a validation error a 400 not to, a model not ready a 503. A refused signature, credential or
// permission is the gateway's own credential failing, so it becomes 401 (the gateway answers its
// client 502 and names the provider's credential variables).
export interface MappedError {
  status: number;
  type: string;
  retry: boolean;
}

const BY_AWS_TYPE: Record<string, MappedError> = {
  ThrottlingException: { status: 429, type: 'rate_limit_error', retry: true },
  ServiceQuotaExceededException: { status: 429, type: 'rate_limit_error', retry: true },
  TooManyRequestsException: { status: 429, type: 'rate_limit_error', retry: true },
  ValidationException: { status: 400, type: 'invalid_request_error', retry: false },
  ResourceNotFoundException: { status: 404, type: 'not_found_error', retry: false },
  ModelNotReadyException: { status: 503, type: 'overloaded_error', retry: true },
  ServiceUnavailableException: { status: 503, type: 'overloaded_error', retry: true },
  InternalServerException: { status: 500, type: 'api_error', retry: true },
  ModelTimeoutException: { status: 504, type: 'api_error', retry: true },
  ModelErrorException: { status: 502, type: 'api_error', retry: false },
  ModelStreamErrorException: { status: 502, type: 'api_error', retry: false },
  AccessDeniedException: { status: 401, type: 'authentication_error', retry: false },
  UnrecognizedClientException: { status: 401, type: 'authentication_error', retry: false },
  InvalidSignatureException: { status: 401, type: 'authentication_error', retry: false },
  SignatureDoesNotMatch: { status: 401, type: 'authentication_error', retry: false },
  IncompleteSignatureException: { status: 401, type: 'authentication_error', retry: false },
  MissingAuthenticationTokenException: { status: 401, type: 'authentication_error', retry: false },
  ExpiredTokenException: { status: 401, type: 'authentication_error', retry: false },
  InvalidClientTokenId: { status: 401, type: 'authentication_error', retry: false },
};

/** `ThrottlingException:http://internal…` or `throttlingException` (stream messages) -> `ThrottlingException`. */
export function awsErrorName(raw: string | undefined): string {
  const name = (raw ?? '').split(':')[0]!.trim();
  return name.charAt(0).toUpperCase() + name.slice(1);
}

export function mapAwsError(name: string, status: number): MappedError {
  const known = BY_AWS_TYPE[name];
  if (known) return known;
  if (status === 401 || status === 403) return { status: 401, type: 'authentication_error', retry: false };
  if (status === 429) return { status, type: 'rate_limit_error', retry: true };
  if (status >= 500) return { status, type: 'api_error', retry: true };
  return { status: status >= 400 ? status : 502, type: status >= 400 && status < 500 ? 'invalid_request_error' : 'api_error', retry: false };
}

/** AWS puts the text in `message` or `Message`. */
export function awsErrorMessage(body: Uint8Array): string {
  const text = Buffer.from(body).toString('utf8');
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const message = parsed.message ?? parsed.Message;
    if (typeof message === 'string') return message;
  } catch {
    // Not JSON: the text itself, shortened below.
  }
  return text.replace(/\s+/g, ' ').slice(0, 300);
}

export function messagesErrorBody(mapped: MappedError, name: string, message: string): string {
  return JSON.stringify({ type: 'error', error: { type: mapped.type, message: name ? `Bedrock ${name}: ${message}` : message } });
}
