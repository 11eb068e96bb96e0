// The gateway as an OAuth authorization server for its own clients: discovery (RFC 8414), device
// authorization (RFC 8628), the token endpoint (device code and refresh token grants) and
// revocation (RFC 7009). Bodies are form-encoded as the RFCs say; JSON is taken too. `client_id` is
// optional: Claude Code sends none. Answers are never cached and never carry secrets in errors.
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import type { GatewayDeps } from '../gateway-deps.ts';
import { AttemptWindow } from './attempt-window.ts';
import { collectDeviceTokens, refreshSignIn, revokeToken, startDeviceAuthorization, type OAuthError } from './device-flow.ts';

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

type Params = Record<string, string>;

class RepeatedParameterError extends Error {}

function parseForm(text: string): Params {
  const params: Params = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (name in params) throw new RepeatedParameterError(`The parameter "${name.slice(0, 40)}" is sent more than once.`);
    params[name] = value;
  }
  return params;
}

function parseJson(text: string): Params {
  if (text.trim() === '') return {};
  const value = JSON.parse(text) as unknown;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('The body must be a JSON object.');
  return Object.fromEntries(Object.entries(value).filter(([, v]) => typeof v === 'string')) as Params;
}

function sendError(reply: FastifyReply, refusal: OAuthError) {
  return reply.code(refusal.status).header('cache-control', 'no-store').send({ error: refusal.error, error_description: refusal.description });
}

/** Who asks, as the approval page shows it: the client id it sent, else what its User-Agent says. */
function clientName(params: Params, userAgent: string | undefined): string {
  const clean = (text: string) => {
    const printable = text.replace(/[^\x20-\x7e]/g, '?');
    return printable.length > 80 ? `${printable.slice(0, 77)}...` : printable;
  };
  if (params.client_id) return clean(params.client_id);
  // Claude Code's /login sends no client id; its HTTP library names itself.
  return userAgent ? `a client without a name (User-Agent ${clean(userAgent)})` : 'a client without a name';
}

/** Device sign-ins one address may start per ten minutes. */
export const DEVICE_STARTS_PER_WINDOW = 30;
const DEVICE_START_WINDOW_MS = 600_000;

export function registerOAuthRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const starts = new AttemptWindow(DEVICE_STARTS_PER_WINDOW, DEVICE_START_WINDOW_MS, 'device-starts', deps.attemptLog, deps.now);
  app.get('/.well-known/oauth-authorization-server', async (_request, reply) => {
    // Read per request: the public address is known only once the listener is up.
    const base = deps.settings.publicUrl;
    return reply.header('cache-control', 'no-store').send({
      issuer: base,
      device_authorization_endpoint: `${base}/oauth/device_authorization`,
      token_endpoint: `${base}/oauth/token`,
      revocation_endpoint: `${base}/oauth/revoke`,
      grant_types_supported: [DEVICE_CODE_GRANT, 'refresh_token'],
      response_types_supported: [],
      scopes_supported: [],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
    });
  });

  app.register(async (oauth) => {
    oauth.removeAllContentTypeParsers();
    oauth.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, parseForm(body as string));
      } catch (error) {
        done(error as Error, undefined);
      }
    });
    oauth.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, parseJson(body as string));
      } catch (error) {
        done(error as Error, undefined);
      }
    });
    oauth.setErrorHandler((error: FastifyError, request, reply) => {
      const unreadable = error instanceof RepeatedParameterError || error instanceof SyntaxError || error.message === 'The body must be a JSON object.';
      const status = unreadable ? 400 : (error.statusCode ?? 500);
      if (status >= 500) {
        request.log.error({ err: { message: error.message } }, 'oauth request failed');
        return sendError(reply, { status: 500, error: 'server_error', description: 'Something went wrong on the gateway. Try again.' });
      }
      const description = status === 415 ? 'Send the parameters form-encoded (application/x-www-form-urlencoded).' : `The request could not be read: ${error.message}`;
      return sendError(reply, { status: status === 415 ? 400 : status, error: 'invalid_request', description });
    });

    oauth.post('/oauth/device_authorization', async (request, reply) => {
      const params = (request.body ?? {}) as Params;
      const wait = await starts.retryAfterSeconds(request.ip);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        return sendError(reply, { status: 429, error: 'slow_down', description: `Too many sign-ins were started from this address; try again in ${wait} s.` });
      }
      await starts.record(request.ip);
      const answer = await startDeviceAuthorization(deps, { name: clientName(params, request.headers['user-agent']), address: request.ip });
      return reply.header('cache-control', 'no-store').send(answer);
    });

    oauth.post('/oauth/token', async (request, reply) => {
      const params = (request.body ?? {}) as Params;
      let outcome;
      if (params.grant_type === DEVICE_CODE_GRANT) {
        if (!params.device_code) return sendError(reply, { status: 400, error: 'invalid_request', description: 'The device_code parameter is missing.' });
        outcome = await collectDeviceTokens(deps, params.device_code);
      } else if (params.grant_type === 'refresh_token') {
        if (!params.refresh_token) return sendError(reply, { status: 400, error: 'invalid_request', description: 'The refresh_token parameter is missing.' });
        outcome = await refreshSignIn(deps, params.refresh_token);
      } else if (!params.grant_type) {
        return sendError(reply, { status: 400, error: 'invalid_request', description: 'The grant_type parameter is missing.' });
      } else {
        return sendError(reply, { status: 400, error: 'unsupported_grant_type', description: `This gateway issues tokens for the grant types ${DEVICE_CODE_GRANT} and refresh_token only.` });
      }
      if (!outcome.ok) return sendError(reply, outcome.refusal);
      return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(outcome.body);
    });

    oauth.post('/oauth/revoke', async (request, reply) => {
      const params = (request.body ?? {}) as Params;
      if (!params.token) return sendError(reply, { status: 400, error: 'invalid_request', description: 'The token parameter is missing.' });
      await revokeToken(deps, params.token, request.ip);
      return reply.header('cache-control', 'no-store').send({});
    });
  });
}
