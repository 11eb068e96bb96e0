// An error answered to an API client: status, stable code, message that says what to do.
// Rendered in the shape of the route's surface (OpenAI or messages) by the error handler.

export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly options: {
      param?: string | null;
      headers?: Record<string, string>;
      /** The owner and key a refusal concerns, for the request log, when the request has no AuthContext. */
      subject?: { userId: string; keyId: string };
    } = {},
  ) {
    super(message);
  }
}
