// /usage/requests: the owner's request log (requests made with their keys: time, key, model, status,
// tokens, cost, latency, client session; never any content), filtered by key, model, status class and
// period, paged newest first by position (time, id) rather than by offset. Works without JavaScript.
// The position is `before=<epoch ms>~<id>`; one in the format of before migration 0012
// (`<ISO time>~req_…`) or anything else this page did not make answers 400: start again from the newest.
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../../gateway-deps.ts';
import type { RequestLogRecord, StatusClass } from '../../store/request-log-repo.ts';
import { REQUEST_LOG_RETENTION_DAYS } from '../../usage/request-log.ts';
import { OUTCOME_LABELS, type UsageOutcome } from '../../usage/usage-outcome.ts';
import { formatCount } from '../format.ts';
import { entryCost } from '../entry-cost.ts';
import { html, type SafeHtml } from '../html.ts';
import { clipped } from '../table-cells.ts';
import { formatTime } from '../../../core/format-time.ts';
import { layout } from '../layout.ts';
import { requirePage } from '../session/web-session.ts';
import { keyNamer } from '../usage-summary.ts';

export const REQUEST_LOG_PAGE_SIZE = 50;

const SINCE: Record<string, { label: string; ms: number }> = {
  '1h': { label: 'Last hour', ms: 3_600_000 },
  '24h': { label: 'Last 24 hours', ms: 86_400_000 },
  '7d': { label: 'Last 7 days', ms: 7 * 86_400_000 },
  '30d': { label: `Last ${REQUEST_LOG_RETENTION_DAYS} days (all that is kept)`, ms: REQUEST_LOG_RETENTION_DAYS * 86_400_000 },
};
const STATUS: Record<string, string> = { '': 'Any status', '2': '2xx (answered)', '4': '4xx (refused)', '5': '5xx (failed)' };
const CURSOR = /^(\d{1,15})~(\d{1,16})$/;

interface Filters {
  key?: string;
  model?: string;
  status?: string;
  since?: string;
  before?: string;
}

class FilterError extends Error {}

function parseFilters(query: Filters) {
  const since = query.since || '24h';
  if (!SINCE[since]) throw new FilterError(`“since” must be one of ${Object.keys(SINCE).join(', ')}; got “${since.slice(0, 40)}”.`);
  const status = query.status ?? '';
  if (!(status in STATUS)) throw new FilterError(`“status” must be 2, 4 or 5 (for 2xx, 4xx, 5xx) or empty; got “${status.slice(0, 40)}”.`);
  let before: { at: number; id: number } | undefined;
  if (query.before) {
    const match = CURSOR.exec(query.before);
    const at = Number(match?.[1]);
    const id = Number(match?.[2]);
    if (!match || !Number.isSafeInteger(at) || !Number.isSafeInteger(id)) throw new FilterError('“before” is not a position this page made; start again from the newest entries.');
    before = { at, id };
  }
  return { key: query.key || undefined, model: query.model?.trim() || undefined, status, since, before };
}

function statusCell(r: RequestLogRecord): SafeHtml {
  const kind = r.status >= 500 ? 'bad' : r.status >= 400 ? 'warn' : 'ok';
  const outcome = r.outcome ? html` <span class="muted">${OUTCOME_LABELS[r.outcome as UsageOutcome] ?? r.outcome}</span>` : '';
  return html`<span class="status ${kind}">${r.status}</span>${outcome}`;
}

export function registerRequestLogPage(app: FastifyInstance, deps: GatewayDeps): void {
  app.get<{ Querystring: Filters }>('/usage/requests', { onRequest: requirePage(deps) }, async (request, reply) => {
    const user = request.webUser!;
    const keys = await deps.store.keys.listForUser(user.id);
    const keyName = keyNamer(keys);
    let filters: ReturnType<typeof parseFilters> | undefined;
    let problem: string | undefined;
    try {
      filters = parseFilters(request.query);
    } catch (error) {
      if (!(error instanceof FilterError)) throw error;
      problem = error.message;
    }
    const f = filters ?? { key: undefined, model: undefined, status: '', since: '24h', before: undefined };
    let entries: RequestLogRecord[] = [];
    let more = false;
    if (filters) {
      await deps.requestLog?.flush().catch(() => undefined);
      const found = await deps.store.requestLog.list({
        userId: user.id,
        keyId: f.key,
        model: f.model,
        statusClass: f.status ? (Number(f.status) as StatusClass) : undefined,
        since: Date.now() - SINCE[f.since]!.ms,
        before: f.before,
        limit: REQUEST_LOG_PAGE_SIZE + 1,
      });
      more = found.length > REQUEST_LOG_PAGE_SIZE;
      entries = found.slice(0, REQUEST_LOG_PAGE_SIZE);
    }
    const same: Record<string, string> = { since: f.since, ...(f.key ? { key: f.key } : {}), ...(f.model ? { model: f.model } : {}), ...(f.status ? { status: f.status } : {}) };
    const last = entries.at(-1);
    const older = more && last ? `/usage/requests?${new URLSearchParams({ ...same, before: `${last.at}~${last.id}` })}` : undefined;
    const body = html`
      <div class="page-head"><h1>Request log</h1>
        <p class="muted">Requests made with your keys, newest first: time, key, model, status, tokens, time taken and the client's session id. No prompt or answer is kept. Entries are kept ${REQUEST_LOG_RETENTION_DAYS} days and appear within a few seconds. <a href="/usage">← Usage charts</a></p>
      </div>
      ${problem ? html`<p class="error" role="alert" id="filter-error">${problem}</p>` : ''}
      <section class="card">
        <form method="get" action="/usage/requests" class="inline" id="log-filters">
          <label>Key <select name="key"><option value="">All keys</option>${keys.map((k) => html`<option value="${k.id}" ${k.id === f.key ? 'selected' : ''}>${keyName(k.id)}</option>`)}</select></label>
          <label>Model <input name="model" value="${f.model ?? ''}" placeholder="any model" size="16"></label>
          <label>Status <select name="status">${Object.entries(STATUS).map(([value, label]) => html`<option value="${value}" ${value === f.status ? 'selected' : ''}>${label}</option>`)}</select></label>
          <label>Period <select name="since">${Object.entries(SINCE).map(([value, s]) => html`<option value="${value}" ${value === f.since ? 'selected' : ''}>${s.label}</option>`)}</select></label>
          <button type="submit">Filter</button>
        </form>
      </section>
      <section class="card">
        ${entries.length === 0
          ? html`<p class="muted" id="no-entries">${f.before ? 'No older entries.' : 'No requests match these filters.'}</p>`
          : html`<div class="table-wrap"><table id="request-log">
              <thead><tr><th>Time</th><th>Key</th><th>Model</th><th>Status</th><th class="num">Tokens in</th><th class="num">Tokens out</th><th class="num">Cost</th><th class="num">Time taken</th><th>Client session</th></tr></thead>
              <tbody>${entries.map((r) => {
                const at = new Date(r.at).toISOString();
                return html`<tr>
                <td><time datetime="${at}">${formatTime(at, { seconds: true })}</time></td>
                <td>${clipped(keyName(r.keyId))}</td>
                <td>${r.model}</td>
                <td>${statusCell(r)}</td>
                <td class="num">${formatCount(r.inputTokens)}</td>
                <td class="num">${formatCount(r.outputTokens)}</td>
                <td class="num">${entryCost(r, deps.prices?.currency)}</td>
                <td class="num">${formatCount(r.latencyMs)} ms</td>
                <td>${r.sessionId ? clipped(r.sessionId, html`<code>${r.sessionId}</code>`) : html`<span class="muted">none</span>`}</td>
              </tr>`;
              })}</tbody>
            </table></div>`}
        <nav class="pager" aria-label="Pages">
          ${f.before ? html`<a class="button small" href="/usage/requests?${new URLSearchParams(same).toString()}">Newest</a>` : ''}
          ${older ? html`<a class="button small" id="older" href="${older}">Older →</a>` : ''}
        </nav>
      </section>`;
    return reply
      .code(problem ? 400 : 200)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(layout({ title: 'Request log', active: 'usage', user, csrfToken: request.webSession!.csrfToken, body, styles: ['/assets/usage.css'] }));
  });
}
