// /keys: the logged-in user's own keys with when each was last used, its requests per day over the
// last 14 days (sparkline), this month's usage and its limits (with what is left of each budget);
// create (value shown once), change limits, and delete with confirmation. Works without
// JavaScript: the form's answer is the page with the new key on it (nothing is kept for a later
// view, so any instance can serve it and the value exists only in that one answer); keys.js
// upgrades create to an in-page call (client/keys-entry.ts, /assets/js/keys.js).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayDeps } from '../../gateway-deps.ts';
import type { ApiKeyRecord, CreatedApiKey } from '../../store/keys-repo.ts';
import { KEY_NAME_MAX_LENGTH } from '../../store/keys-repo.ts';
import { formatCount, shortTime } from '../format.ts';
import { html } from '../html.ts';
import { layout } from '../layout.ts';
import { checkCsrf, requirePage } from '../session/web-session.ts';
import { registerKeyLimitsPage } from './key-limits-page.ts';
import { revokeEverywhere } from '../../cluster/revoke-everywhere.ts';
import { keyTarget, webActor } from '../../audit/audit-targets.ts';
import { checkUsableModels, checkWithinAccount, servedModelIds } from '../../limits/account-bound.ts';
import { applyPatch, hasAnyBudget, NO_LIMITS } from '../../limits/key-limits.ts';
import { limitsPatchFrom, type LimitsFields } from '../../limits/limits-input.ts';
import { standings, type BudgetStanding } from '../../limits/quota-guard.ts';
import { limitsFields, limitsSummary } from './key-limits-view.ts';
import { sparkline, type SparkDay } from '../sparkline.ts';
import { keyUsage } from '../key-usage.ts';
import { KEYS_PAGE_SIZE } from '../api/keys-api.ts';
import { checkRoomForKey } from '../../limits/key-count.ts';
import { clipped } from '../table-cells.ts';
import { connectSection } from './connect-section.ts';

export function createdKeyPanel(key: CreatedApiKey, deps?: GatewayDeps) {
  return html`<section class="card created" id="created-key" role="status">
    <h2>Your new key${key.name ? html` “${key.name}”` : ''}</h2>
    <p><strong>Copy it now. It cannot be shown again.</strong> If you lose it, delete the key and create a new one.</p>
    <div class="copy-row"><code id="new-key-value">${key.key}</code><button type="button" class="primary" data-copy="#new-key-value">Copy</button></div>
    <p class="muted">Keep it in a password manager or a local-only config file. Never paste it into chats, screenshots, issues or repositories.</p>
    ${deps ? connectSection(deps, { key: key.key, idPrefix: 'new-key-connect' }) : ''}
  </section>`;
}

function keyRow(key: ApiKeyRecord, usage: { requests: number; tokens: number } | undefined, spark: SparkDay[], budgetStatus: BudgetStanding[], now: number) {
  return html`<tr data-key-id="${key.id}">
    <td>${key.name ? clipped(key.name) : html`<span class="muted">(no name)</span>`}</td>
    <td><code>${key.hint}</code></td>
    <td>${shortTime(key.createdAt)}</td>
    <td class="last-used">${shortTime(key.lastUsedAt)}</td>
    <td class="spark-cell">${sparkline(spark)}</td>
    <td class="num">${formatCount(usage?.requests ?? 0)}</td>
    <td class="num">${formatCount(usage?.tokens ?? 0)}</td>
    <td class="limits-cell">${limitsSummary(key.limits, budgetStatus, now)}</td>
    <td class="actions-cell"><a class="button small" href="/keys/${key.id}/limits">Limits</a> <a class="button danger small" href="/keys/${key.id}/delete">Delete</a></td>
  </tr>`;
}

interface KeysQuery {
  deleted?: string;
  page?: string;
}

/** The page number asked for (1 when none); anything but a plain number is refused. */
function pageOf(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1;
  if (!/^[1-9][0-9]{0,5}$/.test(raw)) throw Object.assign(new Error('The page number must be a whole number from 1.'), { statusCode: 400 });
  return Number(raw);
}

function pager(page: number, total: number) {
  const pages = Math.max(1, Math.ceil(total / KEYS_PAGE_SIZE));
  if (pages === 1) return '';
  return html`<nav class="pager" aria-label="Key pages">
    ${page > 1 ? html`<a class="button small" href="/keys?page=${page - 1}" rel="prev">← Newer</a>` : ''}
    <span class="muted">Page ${page} of ${pages} (${total} keys)</span>
    ${page < pages ? html`<a class="button small" href="/keys?page=${page + 1}" rel="next">Older →</a>` : ''}
  </nav>`;
}

export function registerKeysPages(app: FastifyInstance, deps: GatewayDeps): void {
  const onRequest = requirePage(deps);

  async function keysPage(request: FastifyRequest<{ Querystring: KeysQuery }>, reply: FastifyReply, created?: CreatedApiKey) {
    const user = request.webUser!;
    const pageNumber = pageOf(request.query.page);
    const offset = (pageNumber - 1) * KEYS_PAGE_SIZE;
    const [keys, total] = await Promise.all([deps.store.keys.listForUser(user.id, { limit: KEYS_PAGE_SIZE, offset }), deps.store.keys.countForUser(user.id)]);
    const now = (deps.now ?? Date.now)();
    const usage = await keyUsage(deps, user.id, now);
    const budgetStatus = new Map(await Promise.all(keys.map(async (k) => [k.id, await standings(deps.budgets, { subject: `key:${k.id}`, budgets: k.limits.budgets }, now)] as const)));
    // The operator's bound for all of this user's keys: a key's own limits can only narrow it.
    const accountLimited = user.limits.models !== null || hasAnyBudget(user.limits.budgets);
    const accountStatus = accountLimited ? await standings(deps.budgets, { subject: `user:${user.id}`, budgets: user.limits.budgets }, now) : [];
    const body = html`
      <div class="page-head"><h1>API keys</h1><p class="muted">Keys are for local agents, SDKs, scripts and compatible clients. The web apps need none. Use your own key so usage is counted for you.</p></div>
      ${created ? createdKeyPanel(created, deps) : ''}
      <div id="created-slot"></div>
      ${request.query.deleted ? html`<p class="notice" role="status">Key deleted. Requests with it now answer 401.</p>` : ''}
      ${accountLimited ? html`<p class="notice" id="account-limits">Limits an operator set for all your keys together: ${limitsSummary(user.limits, accountStatus, now)}. A key's own limits can only narrow them.</p>` : ''}
      <section class="card">
        <h2>Create a key</h2>
        <form method="post" action="/keys" class="inline" id="create-key-form">
          <input type="hidden" name="_csrf" value="${request.webSession!.csrfToken}">
          <label>Name (optional) <input name="name" maxlength="${KEY_NAME_MAX_LENGTH}" placeholder="e.g. laptop, CI"></label>
          ${limitsFields()}
          <button type="submit" class="primary">Create key</button>
        </form>
      </section>
      <section class="card">
        <h2>Your keys</h2>
        ${
          total === 0
            ? html`<p class="muted" id="no-keys">You have no keys yet.</p>`
            : ''
        }
        <div class="table-wrap"><table id="keys-table" class="${keys.length === 0 ? 'hidden' : ''}">
          <thead><tr><th>Name</th><th>Key</th><th>Created</th><th>Last used</th><th>Requests, last 14 days</th><th class="num">Requests (month)</th><th class="num">Tokens (month)</th><th>Limits</th><th>Actions</th></tr></thead>
          <tbody>${keys.map((k) => keyRow(k, usage.month.get(k.id), usage.spark(k.id), budgetStatus.get(k.id) ?? [], now))}</tbody>
        </table></div>
        ${pager(pageNumber, total)}
        <p class="muted">Budgets reset at 00:00 UTC (daily) and on the first of the month (monthly). <a href="/usage">Usage per day, key and model →</a></p>
      </section>
      ${connectSection(deps)}`;
    return reply
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(layout({ title: 'API keys', active: 'keys', user, csrfToken: request.webSession!.csrfToken, body, scripts: ['/assets/js/keys.js'], styles: ['/assets/keys.css'] }));
  }

  app.get<{ Querystring: KeysQuery }>('/keys', { onRequest }, async (request, reply) => keysPage(request, reply));

  app.post<{ Body: { name?: string } & LimitsFields }>('/keys', { onRequest, preHandler: checkCsrf }, async (request, reply) => {
    const name = String(request.body?.name ?? '').slice(0, KEY_NAME_MAX_LENGTH);
    const limits = applyPatch(NO_LIMITS, limitsPatchFrom(request.body ?? {}, (deps.now ?? Date.now)()));
    checkWithinAccount(limits, request.webUser!.limits);
    await checkRoomForKey(deps, request.webUser!.id);
    checkUsableModels(limits.models, request.webUser!.limits, servedModelIds(deps.router));
    const created = await deps.store.keys.create(request.webUser!.id, name, limits);
    await deps.store.audit.record({ ...webActor(request), action: 'key.create', target: keyTarget(created), details: { name: created.name, limits } });
    // Answered in place (201, never cached): a reload asks before sending the form again.
    return keysPage(request as unknown as FastifyRequest<{ Querystring: KeysQuery }>, reply.code(201), created);
  });

  registerKeyLimitsPage(app, deps);

  app.get<{ Params: { id: string } }>('/keys/:id/delete', { onRequest }, async (request, reply) => {
    const key = (await deps.store.keys.listForUser(request.webUser!.id)).find((k) => k.id === request.params.id);
    if (!key) return reply.code(404).type('text/html; charset=utf-8').send(notFoundPage(request.webUser!, request.webSession!.csrfToken));
    const body = html`<section class="card narrow">
      <h1>Delete key?</h1>
      <p>Key <strong>${key.name ?? '(no name)'}</strong> <code>${key.hint}</code>, created ${shortTime(key.createdAt)}.</p>
      <p>Every client using it will get <strong>401</strong> from the next request on. This cannot be undone.</p>
      <form method="post" action="/keys/${key.id}/delete" class="inline">
        <input type="hidden" name="_csrf" value="${request.webSession!.csrfToken}">
        <button type="submit" class="danger" id="confirm-delete">Delete key</button>
        <a class="button" href="/keys">Cancel</a>
      </form>
    </section>`;
    return reply.type('text/html; charset=utf-8').send(layout({ title: 'Delete key', active: 'keys', user: request.webUser, csrfToken: request.webSession!.csrfToken, body }));
  });

  app.post<{ Params: { id: string } }>('/keys/:id/delete', { onRequest, preHandler: checkCsrf }, async (request, reply) => {
    const key = await deps.store.keys.findById(request.params.id);
    const deleted = await deps.store.keys.deleteOwned(request.webUser!.id, request.params.id);
    if (!deleted || !key) return reply.code(404).type('text/html; charset=utf-8').send(notFoundPage(request.webUser!, request.webSession!.csrfToken));
    revokeEverywhere(deps, { kind: 'key', id: request.params.id });
    await deps.store.audit.record({ ...webActor(request), action: 'key.delete', target: keyTarget(key) });
    return reply.redirect('/keys?deleted=1', 303);
  });
}

export function notFoundPage(user: { username: string; isAdmin: boolean }, csrfToken: string): string {
  const body = html`<section class="card narrow"><h1>Not found</h1><p>There is nothing here, or it belongs to someone else.</p><p><a href="/keys">Back to your keys</a></p></section>`;
  return layout({ title: 'Not found', user, csrfToken, body });
}
