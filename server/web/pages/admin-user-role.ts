// POST /admin/users/:id/role: an operator changes an account's role (operator, viewer, member) from
// the users table. The guards and the audit entry are the shared account action's.
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { setUserRole } from '../../accounts/account-actions.ts';
import { AccountRuleError } from '../../accounts/account-rules.ts';
import { isRole } from '../../accounts/roles.ts';
import { webActor } from '../../audit/audit-targets.ts';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { checkCsrf } from '../session/web-session.ts';

export function registerAdminUserRole(app: FastifyInstance, deps: GatewayDeps, onRequest: onRequestHookHandler[]): void {
  app.post<{ Params: { id: string }; Body: { role?: string } }>('/admin/users/:id/role', { onRequest, preHandler: checkCsrf }, async (request, reply) => {
    const user = await deps.store.users.findById(request.params.id);
    const role = request.body?.role;
    if (!user || !isRole(role)) return reply.redirect('/admin?done=role-invalid', 303);
    try {
      await setUserRole(deps.store, user, role, { ...webActor(request), userId: request.webUser!.id });
    } catch (error) {
      if (error instanceof AccountRuleError) return reply.redirect(`/admin?done=${error.code === 'self' ? 'role-self' : 'role-last'}&name=${encodeURIComponent(user.username)}`, 303);
      throw error;
    }
    return reply.redirect(`/admin?done=role&name=${encodeURIComponent(user.username)}`, 303);
  });
}
