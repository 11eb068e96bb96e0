// How audit entries name who acted and on what: ids, user names and masked hints, never a secret.
import type { FastifyRequest } from 'fastify';
import type { ApiKeyRecord } from '../store/keys-repo.ts';

export const keyTarget = (key: Pick<ApiKeyRecord, 'id' | 'hint'>) => `key:${key.id} ${key.hint}`;
export const userTarget = (username: string) => `user:${username}`;

/** The acting person on the web pages and the web JSON API. */
export function webActor(request: FastifyRequest): { actor: string; address: string } {
  return { actor: `user:${request.webUser?.username ?? '?'}`, address: request.ip };
}

/** The operator token (or the signed-in person) behind an operator API call. */
export function tokenActor(request: FastifyRequest): { actor: string; address: string } {
  // A person calling with their own sign-in's access token (operators and viewers).
  if (request.operatorUser) return { actor: `user:${request.operatorUser.username}`, address: request.ip };
  const token = request.operatorToken;
  return { actor: `token:${token ? `${token.id} ${token.hint}${token.name ? ` (${token.name})` : ''}` : '?'}`, address: request.ip };
}
