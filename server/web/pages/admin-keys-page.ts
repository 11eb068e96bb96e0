// /admin/keys (shown as "All keys"): every user's keys, newest first, searchable by name, hint or
// owner and filtered by state (active, expired, owner disabled); revoke with a confirmation page.
// Works without JavaScript: the search is a GET form, revoking a GET confirmation then a POST.
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { keyTarget, webActor } from '../../audit/audit-targets.ts';
import { revokeEverywhere } from '../../cluster/revoke-everywhere.ts';
import type { GatewayDeps } from '../../gateway-deps.ts';
import type { ApiKeyRecord } from '../../store/keys-repo.ts';
import type { User } from '../../store/users-repo.ts';
import { shortTime } from '../format.ts';
import { html, type SafeHtml } from '../html.ts';
import { layout } from '../layout.ts';
import { checkCsrf } from '../session/web-session.ts';
import { limitsSummary } from './key-limits-view.ts';
import { clipped } from '../table-cells.ts';

export type KeyState = 'active' | 'expired' | 'owner-disabled';
const STATES: Array<[KeyState | 'all', string]> = [
  ['all', 'All'],
  ['active', 'Active'],
  ['expired', 'Expired'],
  ['owner-disabled', 'Owner disabled'],
];

export function keyState(key: ApiKeyRecord, owner: User | undefined, now: number): KeyState {
  if (!owner || owner.disabled) return 'owner-disabled';
  if (key.limits.expiresAt && Date.parse(key.limits.expiresAt) <= now) return 'expired';
  return 'active';
}

/** Case-insensitive match on the key's name, its hint (sk-…a1b2 or just the last characters) or its owner's name. */
export function keyMatches(key: ApiKeyRecord, ownerName: string, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [key.name ?? '', key.hint, ownerName, key.id].some((field) => field.toLowerCase().includes(q));
}

interface Query {
  q?: string;
  state?: string;
  revoked?: string;
}

export function registerAdminKeysPage(app: FastifyInstance, deps: GatewayDeps, onRequest: onRequestHookHandler[]): void {
  const send = (request: FastifyRequest, reply: FastifyReply, title: string, body: SafeHtml) =>
    reply
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(layout({ title, active: 'admin-keys', user: request.webUser, csrfToken: request.webSession!.csrfToken, body }));

  app.get<{ Querystring: Query }>('/admin/keys', { onRequest }, async (request, reply) => {
    const now = (deps.now ?? Date.now)();
    const users = new Map((await deps.store.users.list()).map((u) => [u.id, u]));
    const q = String(request.query.q ?? '').slice(0, 200);
    const state = STATES.some(([s]) => s === request.query.state) ? (request.query.state as KeyState | 'all') : 'all';
    const all = await deps.store.keys.listAll();
    const shown = all.filter((k) => keyMatches(k, users.get(k.userId)?.username ?? '', q) && (state === 'all' || keyState(k, users.get(k.userId), now) === state));
    const body = html`
      <div class="page-head"><h1>All keys</h1><p class="muted">Every user's API keys. Revoking one answers 401 to its next request, on every instance.</p></div>
      ${request.query.revoked ? html`<p class="notice" role="status">Key revoked: requests with it now answer 401.</p>` : ''}
      <section class="card">
        <form method="get" action="/admin/keys" class="inline" role="search" id="key-search">
          <label>Search <input type="search" name="q" value="${q}" placeholder="name, sk-…hint or owner"></label>
          <label>State <select name="state">${STATES.map(([value, label]) => html`<option value="${value}" ${value === state ? 'selected' : ''}>${label}</option>`)}</select></label>
          <button type="submit">Show</button>
        </form>
        <p class="muted" id="key-count">${shown.length} of ${all.length} key(s).</p>
        <div class="table-wrap"><table id="all-keys-table">
          <thead><tr><th>Owner</th><th>Name</th><th>Key</th><th>State</th><th>Created</th><th>Last used</th><th>Limits</th><th>Actions</th></tr></thead>
          <tbody>${shown.map((k) => {
            const owner = users.get(k.userId);
            return html`<tr data-key-id="${k.id}"><td>${clipped(owner?.username ?? k.userId)}</td><td>${k.name ? clipped(k.name) : html`<span class="muted">(no name)</span>`}</td>
              <td><code>${k.hint}</code></td><td>${keyState(k, owner, now).replace('-', ' ')}</td>
              <td>${shortTime(k.createdAt)}</td><td>${shortTime(k.lastUsedAt)}</td>
              <td class="limits-cell">${limitsSummary(k.limits, [], now)}</td>
              <td class="actions-cell"><a class="button small danger" href="/admin/keys/${k.id}/revoke">Revoke</a></td></tr>`;
          })}</tbody>
        </table></div>
      </section>`;
    return send(request, reply, 'All keys', body);
  });

  app.get<{ Params: { id: string } }>('/admin/keys/:id/revoke', { onRequest }, async (request, reply) => {
    const key = await deps.store.keys.findById(request.params.id);
    if (!key) return send(request, reply.code(404), 'Not found', html`<section class="card narrow"><h1>No such key</h1><p><a href="/admin/keys">Back to all keys</a></p></section>`);
    const owner = await deps.store.users.findById(key.userId);
    return send(request, reply, 'Revoke key', html`<section class="card narrow">
      <h1>Revoke key?</h1>
      <p>Key <strong>${key.name ?? '(no name)'}</strong> <code>${key.hint}</code> of <strong>${owner?.username ?? key.userId}</strong>, created ${shortTime(key.createdAt)}, last used ${shortTime(key.lastUsedAt)}.</p>
      <p>Every client using it gets <strong>401</strong> from the next request on, on every instance. This cannot be undone; the owner can create a new key.</p>
      <form method="post" action="/admin/keys/${key.id}/revoke" class="inline">
        <input type="hidden" name="_csrf" value="${request.webSession!.csrfToken}">
        <button type="submit" class="danger" id="confirm-revoke">Revoke key</button>
        <a class="button" href="/admin/keys">Cancel</a>
      </form></section>`);
  });

  app.post<{ Params: { id: string } }>('/admin/keys/:id/revoke', { onRequest, preHandler: checkCsrf }, async (request, reply) => {
    const key = await deps.store.keys.deleteById(request.params.id);
    if (!key) return send(request, reply.code(404), 'Not found', html`<section class="card narrow"><h1>No such key</h1><p><a href="/admin/keys">Back to all keys</a></p></section>`);
    revokeEverywhere(deps, { kind: 'key', id: key.id });
    const owner = await deps.store.users.findById(key.userId);
    await deps.store.audit.record({ ...webActor(request), action: 'key.delete', target: keyTarget(key), details: { user: owner?.username ?? key.userId } });
    return reply.redirect('/admin/keys?revoked=1', 303);
  });
}
