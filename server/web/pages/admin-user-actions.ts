// /admin/users/:id/{disable,enable,delete,password}: what operators do to an account from the Users
// page. Disable and delete open a confirmation page first (GET), and the POST without the
// confirmation field answers that page again, so no single click removes access. The rules (not
// yourself, never the last active operator) are those of gwctl admin and the operator API.
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { deleteUser, resetPassword, setUserDisabled } from '../../accounts/account-actions.ts';
import { AccountRuleError, PASSWORD_MIN_LENGTH } from '../../accounts/account-rules.ts';
import { webActor } from '../../audit/audit-targets.ts';
import { revokeEverywhere } from '../../cluster/revoke-everywhere.ts';
import type { GatewayDeps } from '../../gateway-deps.ts';
import type { User } from '../../store/users-repo.ts';
import { html, type SafeHtml } from '../html.ts';
import { layout } from '../layout.ts';
import { checkCsrf } from '../session/web-session.ts';

type Action = 'disable' | 'enable' | 'delete' | 'password';
const ACTIONS = new Set<string>(['disable', 'enable', 'delete', 'password']);

const CONSEQUENCES: Record<Exclude<Action, 'enable' | 'password'>, string> = {
  disable: 'Their keys answer 401 from the next request on, on every instance, and their web sessions end. Nothing is deleted; you can enable them again.',
  delete: 'Their keys are revoked on every instance at once, their sessions, conversations and images are deleted. Their usage stays in the reports under their id. This cannot be undone.',
};

function doneUrl(done: string, name: string, keys?: number): string {
  return `/admin?${new URLSearchParams({ done, name, ...(keys === undefined ? {} : { keys: String(keys) }) }).toString()}`;
}

/** The notice /admin shows after an action (from fixed texts: the query cannot put words on the page). */
export function doneNotice(query: { done?: string; name?: string; keys?: string }): string | undefined {
  const name = query.name ?? '';
  switch (query.done) {
    case 'deleted':
      return `Deleted ${name}: ${Number(query.keys ?? 0)} key(s) revoked on every instance, sessions ended; their usage stays.`;
    case 'password':
      return `Password of ${name} set; their web sessions ended.`;
    case 'disabled':
      return `Disabled ${name}: their sessions ended and their keys answer 401.`;
    case 'enabled':
      return `Enabled ${name}: their keys work again.`;
    case 'role':
      return `${name}'s role was changed.`;
    case 'role-self':
      return 'You cannot change your own role; ask another operator.';
    case 'role-last':
      return `${name} is the last active operator; make another account an operator first.`;
    case 'role-invalid':
      return 'Choose operator, viewer or member.';
    case 'unchanged':
      return `${name} was already in that state; nothing changed.`;
    default:
      return undefined;
  }
}

export function registerAdminUserActions(app: FastifyInstance, deps: GatewayDeps, onRequest: onRequestHookHandler[]): void {
  const send = (request: FastifyRequest, reply: FastifyReply, title: string, body: SafeHtml) =>
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(layout({ title, active: 'admin', user: request.webUser, csrfToken: request.webSession!.csrfToken, body }));

  function confirmPage(request: FastifyRequest, reply: FastifyReply, user: User, action: Action, error?: string) {
    const csrf = request.webSession!.csrfToken;
    const hidden = html`<input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="confirmed" value="yes">`;
    const errorLine = error ? html`<p class="error" role="alert">${error}</p>` : '';
    if (action === 'password') {
      return send(request, reply, `Password of ${user.username}`, html`<section class="card narrow">
        <h1>Set the password of ${user.username}</h1>${errorLine}
        <p>Their web sessions end; their API keys keep working. Tell them the new password through a private channel.</p>
        <form method="post" action="/admin/users/${user.id}/password" class="stack">${hidden}
          <label>New password <input name="password" type="password" required minlength="${PASSWORD_MIN_LENGTH}" autocomplete="new-password"></label>
          <div class="actions"><button type="submit" class="primary" id="confirm-action">Set password</button> <a class="button" href="/admin">Cancel</a></div>
        </form></section>`);
    }
    const verb = action === 'delete' ? 'Delete' : action === 'disable' ? 'Disable' : 'Enable';
    return send(request, reply, `${verb} ${user.username}`, html`<section class="card narrow">
      <h1>${verb} user ${user.username}?</h1>${errorLine}
      ${action === 'enable' ? html`<p>Their keys work again and they can log in.</p>` : html`<p>${CONSEQUENCES[action]}</p>`}
      <form method="post" action="/admin/users/${user.id}/${action}" class="inline">${hidden}
        <button type="submit" class="${action === 'enable' ? 'primary' : 'danger'}" id="confirm-action">${verb} ${user.username}</button>
        <a class="button" href="/admin">Cancel</a>
      </form></section>`);
  }

  async function target(request: FastifyRequest<{ Params: { id: string; action: string } }>, reply: FastifyReply): Promise<User | undefined> {
    const user = ACTIONS.has(request.params.action) ? await deps.store.users.findById(request.params.id) : undefined;
    if (!user) void send(request, reply.code(404), 'Not found', html`<section class="card narrow"><h1>No such user</h1><p><a href="/admin">Back to the users</a></p></section>`);
    return user;
  }

  app.get<{ Params: { id: string; action: string } }>('/admin/users/:id/:action', { onRequest }, async (request, reply) => {
    const user = await target(request, reply);
    if (!user) return reply;
    return confirmPage(request, reply, user, request.params.action as Action);
  });

  app.post<{ Params: { id: string; action: string }; Body: { confirmed?: string; password?: string } }>(
    '/admin/users/:id/:action',
    { onRequest, preHandler: checkCsrf },
    async (request, reply) => {
      const user = await target(request, reply);
      if (!user) return reply;
      const action = request.params.action as Action;
      if (request.body?.confirmed !== 'yes') return confirmPage(request, reply, user, action);
      const actor = { ...webActor(request), userId: request.webUser!.id };
      const revoke = (event: Parameters<typeof revokeEverywhere>[1]) => revokeEverywhere(deps, event);
      try {
        if (action === 'delete') {
          const { keysRevoked } = await deleteUser(deps.store, user, actor, revoke);
          return reply.redirect(doneUrl('deleted', user.username, keysRevoked), 303);
        }
        if (action === 'password') {
          await resetPassword(deps.store, user, String(request.body?.password ?? ''), actor);
          return reply.redirect(doneUrl('password', user.username), 303);
        }
        const { changed } = await setUserDisabled(deps.store, user, action === 'disable', actor, revoke);
        return reply.redirect(doneUrl(changed ? `${action}d` : 'unchanged', user.username), 303);
      } catch (error) {
        if (error instanceof AccountRuleError) return confirmPage(request, reply.code(error.status), user, action, `${error.message} ${error.remedy}`);
        throw error;
      }
    },
  );
}
