// The client side of the gateway's sign-in endpoints: discovery (RFC 8414), device authorization
// (RFC 8628), the token endpoint and revocation (RFC 7009). Form-encoded bodies, bounded time; an
// OAuth refusal comes back as data, a transport failure as a SignInError that says what to check.

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const TIMEOUT_MS = 15_000;

export class SignInError extends Error {
  override readonly name = 'SignInError';
  constructor(
    message: string,
    readonly remedy: string,
  ) {
    super(message);
  }
}

export interface GatewayMetadata {
  issuer: string;
  device_authorization_endpoint: string;
  token_endpoint: string;
  revocation_endpoint?: string;
}

export interface DeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete?: string;
  expires_in: number;
  interval?: number;
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

export type TokenAnswer = { ok: true; tokens: Tokens } | { ok: false; error: string; description: string };

/** ECONNREFUSED, ENOTFOUND, TimeoutError…: what fetch's wrapped error says went wrong. */
function networkCause(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string; errors?: Array<{ code?: string }> } }).cause;
  return cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? (error as Error).name;
}

async function call(url: string, init: RequestInit, what: string): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
  } catch (error) {
    const cause = networkCause(error);
    throw new SignInError(`Could not reach ${url} for ${what} (${cause}).`, 'Check the gateway address (gwctl config get baseUrl) and that the gateway is running.');
  }
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    throw new SignInError(`${url} answered ${response.status} with something other than JSON to ${what}.`, 'Check that the address is the gateway itself (not a web page or another service).');
  }
}

const form = (params: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
  body: new URLSearchParams(params).toString(),
});

export async function discover(gateway: string): Promise<GatewayMetadata> {
  const url = `${gateway}/.well-known/oauth-authorization-server`;
  const { status, body } = await call(url, { headers: { accept: 'application/json' } }, 'its sign-in settings');
  const meta = body as Partial<GatewayMetadata>;
  if (status !== 200 || typeof meta.device_authorization_endpoint !== 'string' || typeof meta.token_endpoint !== 'string') {
    throw new SignInError(`${url} answered ${status} without a device sign-in endpoint.`, 'This gateway does not offer device sign-in; use an API key instead, or update the gateway.');
  }
  return meta as GatewayMetadata;
}

export async function requestDeviceAuthorization(meta: GatewayMetadata, clientId: string): Promise<DeviceAuthorization> {
  const { status, body } = await call(meta.device_authorization_endpoint, form({ client_id: clientId }), 'a device code');
  const answer = body as Partial<DeviceAuthorization> & { error_description?: string };
  if (status !== 200 || typeof answer.device_code !== 'string' || typeof answer.user_code !== 'string' || typeof answer.verification_uri !== 'string') {
    throw new SignInError(`The gateway refused a device code (${status}${answer.error_description ? `: ${answer.error_description}` : ''}).`, 'Try again in a moment; if it persists, tell the operator.');
  }
  return answer as DeviceAuthorization;
}

export async function requestTokens(tokenEndpoint: string, params: Record<string, string>): Promise<TokenAnswer> {
  const { status, body } = await call(tokenEndpoint, form(params), 'tokens');
  const answer = body as Partial<Tokens> & { error?: string; error_description?: string };
  if (status === 200 && typeof answer.access_token === 'string' && typeof answer.refresh_token === 'string' && typeof answer.expires_in === 'number') {
    return { ok: true, tokens: answer as Tokens };
  }
  return { ok: false, error: answer.error ?? `http_${status}`, description: answer.error_description ?? `The token endpoint answered ${status}.` };
}

/** RFC 7009: the gateway answers 200 whether or not it knew the token. */
export async function revoke(revocationEndpoint: string, token: string, hint: 'refresh_token' | 'access_token'): Promise<boolean> {
  const { status } = await call(revocationEndpoint, form({ token, token_type_hint: hint }), 'revoking the sign-in');
  return status === 200;
}
