// Operator API, users: list, create (a generated password is returned once), disable/enable, limits.
import { passwordProblem } from '../auth/password-policy.ts';
import type { FastifyInstance } from 'fastify';
import { tokenActor, userTarget } from '../audit/audit-targets.ts';
import { randomBase62 } from '../auth/random-tokens.ts';
import { revokeEverywhere } from '../cluster/revoke-everywhere.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import { limitsPatchFrom, type LimitsFields } from '../limits/limits-input.ts';
import { UserExistsError, type User } from '../store/users-repo.ts';
import { authErrors, errorSchema, userLimitsBodyProperties, userSchema } from './admin-schemas.ts';

const tags = ['users'];
const nameParam = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } as const;

async function userNamed(deps: GatewayDeps, name: string): Promise<User> {
  const user = await deps.store.users.findByName(name);
  if (!user) throw new GatewayError(404, 'user_not_found', `No user named "${name}". GET /admin/api/v1/users lists them.`);
  return user;
}

export function registerAdminUsersRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  app.get('/admin/api/v1/users', { schema: { tags, summary: 'List users', response: { 200: { type: 'object', properties: { users: { type: 'array', items: userSchema } } }, ...authErrors } } }, async () => ({
    users: await deps.store.users.list(),
  }));

  app.post<{ Body: { username: string; password?: string; admin?: boolean } }>(
    '/admin/api/v1/users',
    {
      schema: {
        tags,
        summary: 'Create a user',
        description: 'Without a password, one is generated and returned by this call only.',
        body: {
          type: 'object',
          required: ['username'],
          additionalProperties: false,
          properties: { username: { type: 'string' }, password: { type: 'string', minLength: 8, maxLength: 1024, description: 'At least 8 characters, not a common password, not the user name' }, admin: { type: 'boolean', default: false } },
        },
        response: {
          201: { type: 'object', properties: { user: userSchema, password: { type: 'string', description: 'Only when generated' } } },
          400: errorSchema,
          409: errorSchema,
          ...authErrors,
        },
      },
    },
    async (request, reply) => {
      const generated = request.body.password === undefined ? randomBase62(20) : undefined;
      const problem = request.body.password === undefined ? undefined : passwordProblem(request.body.password, request.body.username);
      if (problem) throw new GatewayError(400, 'weak_password', problem, { param: 'password' });
      try {
        const user = await deps.store.users.create(request.body.username, request.body.password ?? generated!, { isAdmin: request.body.admin === true });
        await deps.store.audit.record({ ...tokenActor(request), action: 'user.create', target: userTarget(user.username), details: { admin: user.isAdmin } });
        return reply.code(201).header('cache-control', 'no-store').send(generated ? { user, password: generated } : { user });
      } catch (error) {
        if (error instanceof UserExistsError) throw new GatewayError(409, 'user_exists', error.message, { param: 'username' });
        if (error instanceof RangeError) throw new GatewayError(400, 'invalid_username', error.message, { param: 'username' });
        throw error;
      }
    },
  );

  for (const action of ['disable', 'enable'] as const) {
    app.post<{ Params: { name: string } }>(
      `/admin/api/v1/users/:name/${action}`,
      {
        schema: {
          tags,
          summary: action === 'disable' ? 'Disable a user: their keys answer 401 and their sessions end at once, on every instance' : 'Enable a disabled user',
          params: nameParam,
          response: { 200: { type: 'object', properties: { user: userSchema } }, 404: errorSchema, ...authErrors },
        },
      },
      async (request) => {
        const user = await userNamed(deps, request.params.name);
        await deps.store.users.setDisabled(user.id, action === 'disable');
        if (action === 'disable') {
          await deps.store.sessions.deleteForUser(user.id);
          revokeEverywhere(deps, { kind: 'user', id: user.id });
        }
        await deps.store.audit.record({ ...tokenActor(request), action: action === 'disable' ? 'user.disable' : 'user.enable', target: userTarget(user.username) });
        return { user: { ...user, disabled: action === 'disable' } };
      },
    );
  }

  app.patch<{ Params: { name: string }; Body: LimitsFields }>(
    '/admin/api/v1/users/:name/limits',
    {
      schema: {
        tags,
        summary: "Change a user's limits (models and budgets for all their keys); fields not sent stay, null removes one",
        params: nameParam,
        body: { type: 'object', additionalProperties: false, properties: userLimitsBodyProperties },
        response: { 200: { type: 'object', properties: { user: userSchema } }, 400: errorSchema, 404: errorSchema, ...authErrors },
      },
    },
    async (request) => {
      const user = await userNamed(deps, request.params.name);
      const patch = limitsPatchFrom(request.body ?? {});
      const updated = await deps.store.users.setLimits(user.id, patch);
      revokeEverywhere(deps, { kind: 'user', id: user.id });
      await deps.store.audit.record({ ...tokenActor(request), action: 'user.limits', target: userTarget(user.username), details: { changed: patch } });
      return { user: updated };
    },
  );
}
