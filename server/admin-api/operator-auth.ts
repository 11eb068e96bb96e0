// The operator API's authentication: `Authorization: Bearer <operator token>` (created with
// `gwctl admin token create`). Looked up on each call, so a revoked token is refused at once
// everywhere; operator calls are rare, unlike API requests, so the query is affordable here.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../errors/gateway-error.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import type { OperatorToken } from '../store/operator-tokens-repo.ts';

declare module 'fastify' {
  interface FastifyRequest {
    operatorToken?: OperatorToken;
  }
}

export function requireOperatorToken(deps: GatewayDeps) {
  return async function authenticateOperator(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) {
      throw new GatewayError(401, 'operator_token_required', 'This API needs an operator token: send "Authorization: Bearer <token>". Create one with `gwctl admin token create`.');
    }
    const token = await deps.store.operatorTokens.authenticate(match[1]!);
    if (!token) {
      throw new GatewayError(401, 'invalid_operator_token', 'The operator token is unknown or was revoked. Create a new one with `gwctl admin token create`; `gwctl admin token list` shows the valid ones.');
    }
    request.operatorToken = token;
  };
}
