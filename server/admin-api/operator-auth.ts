// The operator API's authentication: `Authorization: Bearer <operator token>` (created with
// `gwctl admin token create`), or a person's own sign-in access token (`gwctl token`) when their
// role is operator or viewer (viewers read only). Looked up on each call, so a revoked token is refused at once
// everywhere; operator calls are rare, unlike API requests, so the query is affordable here.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../errors/gateway-error.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import type { OperatorToken } from '../store/operator-tokens-repo.ts';
import type { User } from '../store/users-repo.ts';
import { ACCESS_TOKEN_PREFIX } from '../sign-in/sign-in-secrets.ts';
import { checkExpiry } from '../limits/key-enforcement.ts';

declare module 'fastify' {
  interface FastifyRequest {
    operatorToken?: OperatorToken;
    /** The person when the call carries their sign-in's access token (gwctl token) instead of an operator token. */
    operatorUser?: User;
  }
}

/**
 * A person's access token (gwctl login): operators may do anything, viewers only read (GET), members
 * nothing. Resolved like on the API routes, so a signed-out or disabled person is refused at once.
 */
async function authenticateSignedIn(deps: GatewayDeps, request: FastifyRequest, token: string): Promise<void> {
  const auth = await deps.authenticator.authenticate(token);
  checkExpiry(auth, (deps.now ?? Date.now)());
  const user = await deps.store.users.findById(auth.userId);
  if (!user || user.disabled) throw new GatewayError(401, 'account_disabled', 'The account of this access token is disabled or was removed.');
  const reading = request.method === 'GET' || request.method === 'HEAD';
  if (user.role === 'viewer' && !reading) {
    throw new GatewayError(403, 'viewer_read_only', `${user.username} is a viewer: the operator API answers their reads (GET) only. Ask an operator to make the change.`);
  }
  if (user.role !== 'operator' && user.role !== 'viewer') {
    throw new GatewayError(403, 'operator_role_required', `${user.username} is a member; the operator API is for operators and viewers. Ask an operator for the role, or use an operator token.`);
  }
  request.operatorUser = user;
}

export function requireOperatorToken(deps: GatewayDeps) {
  return async function authenticateOperator(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) {
      throw new GatewayError(401, 'operator_token_required', 'This API needs an operator token: send "Authorization: Bearer <token>". Create one with `gwctl admin token create`.');
    }
    if (match[1]!.startsWith(ACCESS_TOKEN_PREFIX)) return authenticateSignedIn(deps, request, match[1]!);
    const token = await deps.store.operatorTokens.authenticate(match[1]!);
    if (!token) {
      throw new GatewayError(401, 'invalid_operator_token', 'The operator token is unknown or was revoked. Create a new one with `gwctl admin token create`; `gwctl admin token list` shows the valid ones.');
    }
    request.operatorToken = token;
  };
}
