// Operator API, users: list, create (a generated password is returned once), disable/enable, delete,
// password reset, limits. The rules (last operator, password policy) are those of gwctl admin and /admin.
import { passwordProblem } from '../auth/password-policy.ts';
import type { FastifyInstance } from 'fastify';
import { tokenActor, userTarget } from '../audit/audit-targets.ts';
import { randomBase62 } from '../auth/random-tokens.ts';
import { deleteUser, endUserSignIns, resetPassword, setUserDisabled, setUserRole } from '../accounts/account-actions.ts';
import { ROLES, type Role } from '../accounts/roles.ts';
import { AccountRuleError } from '../accounts/account-rules.ts';
import { revokeEverywhere } from '../cluster/revoke-everywhere.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import { limitsPatchFrom, type LimitsFields } from '../limits/limits-input.ts';
import { UserExistsError, type User } from '../store/users-repo.ts';
import { authErrors, errorSchema, ref, userLimitsBodyProperties, userLimitsInput } from './admin-schemas.ts';
import { flattenLimits, type NestedLimits } from './limits-shape.ts';

const tags = ['users'];
const nameParam = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } as const;

async function userNamed(deps: GatewayDeps, name: string): Promise<User> {
  const user = await deps.store.users.findByName(name);
  if (!user) throw new GatewayError(404, 'user_not_found', `No user named "${name}". GET /admin/api/v1/users lists them.`);
  return user;
}

async function applyRule<R>(work: () => Promise<R>): Promise<R> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AccountRuleError) throw new GatewayError(error.status, error.code, `${error.message} ${error.remedy}`, { param: error.code === 'weak_password' ? 'password' : null });
    throw error;
  }
}

export function registerAdminUsersRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  app.get('/admin/api/v1/users', { schema: { tags, summary: 'List users', response: { 200: { type: 'object', properties: { users: { type: 'array', items: ref('User') } } }, ...authErrors } } }, async () => ({
    users: await deps.store.users.list(),
  }));

  app.post<{ Body: { username: string; password?: string; admin?: boolean; isAdmin?: boolean } }>(
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
          properties: {
            username: { type: 'string' },
            password: { type: 'string', minLength: 8, maxLength: 1024, description: 'At least 8 characters, not a common password, not the user name' },
            isAdmin: { type: 'boolean', description: 'As in answers' },
            admin: { type: 'boolean', description: 'Older name of isAdmin' },
          },
        },
        response: {
          201: { type: 'object', properties: { user: ref('User'), password: { type: 'string', description: 'Only when generated' } } },
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
        const user = await deps.store.users.create(request.body.username, request.body.password ?? generated!, { isAdmin: (request.body.isAdmin ?? request.body.admin) === true });
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
          description: action === 'disable' ? 'Refused (409 last_operator) for the last active operator. A user already disabled stays so and nothing is audited (changed: false).' : 'A user already enabled stays so (changed: false).',
          params: nameParam,
          response: { 200: { type: 'object', properties: { user: ref('User'), changed: { type: 'boolean' } } }, 404: errorSchema, 409: errorSchema, ...authErrors },
        },
      },
      async (request) => {
        const user = await userNamed(deps, request.params.name);
        return applyRule(() => setUserDisabled(deps.store, user, action === 'disable', tokenActor(request), (event) => revokeEverywhere(deps, event)));
      },
    );
  }

  app.delete<{ Params: { name: string } }>(
    '/admin/api/v1/users/:name',
    {
      schema: {
        tags,
        summary: 'Delete a user: keys revoked on every instance at once, sessions ended; usage is kept under the user id',
        description: 'Refused (409 last_operator) for the last active operator.',
        params: nameParam,
        response: { 200: { type: 'object', properties: { deleted: { type: 'boolean' }, user: ref('User'), keysRevoked: { type: 'integer' } } }, 404: errorSchema, 409: errorSchema, ...authErrors },
      },
    },
    async (request) => {
      const user = await userNamed(deps, request.params.name);
      const { keysRevoked } = await applyRule(() => deleteUser(deps.store, user, tokenActor(request), (event) => revokeEverywhere(deps, event)));
      return { deleted: true, user, keysRevoked };
    },
  );

  app.post<{ Params: { name: string }; Body: { password?: string } }>(
    '/admin/api/v1/users/:name/password',
    {
      schema: {
        tags,
        summary: "Set a user's password; their web sessions end (API keys keep working)",
        description: 'Without a password, one is generated and returned by this call only.',
        params: nameParam,
        // No body at all (curl -X POST) is fine: the password is then generated.
        body: { type: ['object', 'null'], additionalProperties: false, properties: { password: { type: 'string', minLength: 8 } } },
        response: { 200: { type: 'object', properties: { user: ref('User'), password: { type: 'string', description: 'Only when generated' } } }, 400: errorSchema, 404: errorSchema, ...authErrors },
      },
    },
    async (request, reply) => {
      const user = await userNamed(deps, request.params.name);
      const generated = request.body?.password === undefined ? randomBase62(20) : undefined;
      await applyRule(() => resetPassword(deps.store, user, request.body?.password ?? generated!, tokenActor(request)));
      return reply.header('cache-control', 'no-store').send(generated ? { user, password: generated } : { user });
    },
  );

  app.patch<{ Params: { name: string }; Body: LimitsFields & { limits?: NestedLimits } }>(
    '/admin/api/v1/users/:name/limits',
    {
      schema: {
        tags,
        summary: "Change a user's limits (models and budgets for all their keys); fields not sent stay, null removes one",
        params: nameParam,
        body: { type: 'object', additionalProperties: false, properties: { limits: userLimitsInput, ...userLimitsBodyProperties } },
        response: { 200: { type: 'object', properties: { user: ref('User') } }, 400: errorSchema, 404: errorSchema, ...authErrors },
      },
    },
    async (request) => {
      const user = await userNamed(deps, request.params.name);
      const { limits, ...flat } = request.body ?? {};
      const patch = limitsPatchFrom(flattenLimits(limits, flat));
      const updated = await deps.store.users.setLimits(user.id, patch);
      revokeEverywhere(deps, { kind: 'user', id: user.id });
      await deps.store.audit.record({ ...tokenActor(request), action: 'user.limits', target: userTarget(user.username), details: { changed: patch } });
      return { user: updated };
    },
  );

  app.put<{ Params: { name: string }; Body: { role: Role } }>(
    '/admin/api/v1/users/:name/role',
    {
      schema: {
        tags,
        summary: "Change a user's role (operator, viewer, member); the last active operator stays one",
        params: nameParam,
        body: { type: 'object', additionalProperties: false, required: ['role'], properties: { role: { type: 'string', enum: [...ROLES] } } },
        response: { 200: { type: 'object', properties: { user: ref('User'), changed: { type: 'boolean' } } }, 400: errorSchema, 404: errorSchema, 409: errorSchema, ...authErrors },
      },
    },
    async (request) => {
      const user = await userNamed(deps, request.params.name);
      const actor = { ...tokenActor(request), ...(request.operatorUser ? { userId: request.operatorUser.id } : {}) };
      return applyRule(() => setUserRole(deps.store, user, request.body.role, actor));
    },
  );

  app.delete<{ Params: { name: string } }>(
    '/admin/api/v1/users/:name/sign-ins',
    {
      schema: {
        tags,
        summary: "End every device sign-in of a user (gwctl login, Claude Code): their access tokens answer 401 at once on every instance; keys and web sessions stay",
        params: nameParam,
        response: { 200: { type: 'object', properties: { ended: { type: 'integer' } } }, 404: errorSchema, ...authErrors },
      },
    },
    async (request) => {
      const user = await userNamed(deps, request.params.name);
      return endUserSignIns(deps.store, user, tokenActor(request), (event) => revokeEverywhere(deps, event));
    },
  );
}
