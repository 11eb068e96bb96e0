// /usage: the person's own usage for the last 30 days: what is left of key budgets, per day (charts),
// per key, per model and per client session (for clients that name their sessions, such as coding agents).
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { hourBucket } from '../../usage/usage-meter.ts';
import { OUTCOME_LABELS, type UsageOutcome } from '../../usage/usage-outcome.ts';
import { barChart } from '../bar-chart.ts';
import { formatCount } from '../format.ts';
import { html } from '../html.ts';
import { layout } from '../layout.ts';
import { requirePage } from '../session/web-session.ts';
import { budgetsSection } from './budgets-section.ts';
import { daysBack, perSession, summarize, type Totals } from '../usage-summary.ts';

const DAYS = 30;
const SESSIONS_SHOWN = 50;

export function totalsTable(label: string, rows: Array<[string, Totals]>) {
  if (rows.length === 0) return html`<p class="muted">No usage in this period.</p>`;
  return html`<div class="table-wrap"><table>
    <thead><tr><th>${label}</th><th class="num">Requests</th><th class="num">Input tokens</th><th class="num">Output tokens</th><th class="num">Errors</th></tr></thead>
    <tbody>${rows.map(
      ([name, t]) => html`<tr><td>${name}</td><td class="num">${formatCount(t.requests)}</td><td class="num">${formatCount(t.inputTokens)}</td><td class="num">${formatCount(t.outputTokens)}</td><td class="num">${formatCount(t.errors)}</td></tr>`,
    )}</tbody>
  </table></div>`;
}

export function registerUsagePage(app: FastifyInstance, deps: GatewayDeps): void {
  app.get('/usage', { onRequest: requirePage(deps) }, async (request, reply) => {
    const user = request.webUser!;
    await deps.usage.flush().catch(() => undefined);
    const days = daysBack(DAYS);
    const rows = await deps.store.usage.rows({ userId: user.id, sinceHour: hourBucket(new Date(`${days[0]}T00:00:00Z`)) });
    const summary = summarize(rows, days);
    const endedEarly = new Map<UsageOutcome, number>();
    for (const o of await deps.store.usage.outcomes({ userId: user.id, sinceHour: hourBucket(new Date(`${days[0]}T00:00:00Z`)) })) {
      endedEarly.set(o.outcome as UsageOutcome, (endedEarly.get(o.outcome as UsageOutcome) ?? 0) + o.count);
    }
    const sessions = perSession(await deps.store.usage.sessionRows({ userId: user.id, sinceHour: hourBucket(new Date(`${days[0]}T00:00:00Z`)) }), SESSIONS_SHOWN);
    const keyRecords = await deps.store.keys.listForUser(user.id);
    const keys = new Map(keyRecords.map((k) => [k.id, `${k.name ?? '(no name)'} ${k.hint}`]));
    const keyName = (id: string) => (id === '' ? 'Web apps (no key)' : keys.get(id) ?? `deleted key ${id}`);
    const series = [...summary.perDay.entries()];
    const body = html`
      <div class="page-head"><h1>Your usage</h1><p class="muted">Last ${DAYS} days, UTC. ${formatCount(summary.total.requests)} requests, ${formatCount(summary.total.inputTokens + summary.total.outputTokens)} tokens.</p></div>
      ${endedEarly.size === 0 ? '' : html`<p class="muted">Ended early, counted with the tokens used until then: ${[...endedEarly].map(([outcome, count]) => `${formatCount(count)} × ${OUTCOME_LABELS[outcome] ?? outcome}`).join('; ')}.</p>`}
      ${await budgetsSection(deps, keyRecords, user)}
      <section class="card charts">
        ${barChart('Requests per day', series.map(([day, t]) => ({ label: day.slice(5), value: t.requests })))}
        ${barChart('Tokens per day', series.map(([day, t]) => ({ label: day.slice(5), value: t.inputTokens + t.outputTokens })))}
      </section>
      <section class="card"><h2>Per key</h2>${totalsTable('Key', [...summary.perKey.entries()].map(([id, t]) => [keyName(id), t]))}</section>
      <section class="card"><h2>Per model</h2>${totalsTable('Model', [...summary.perModel.entries()].map(([model, t]) => [model === '(none)' ? 'no model (model lists, refused requests)' : model, t]))}</section>
      <section class="card"><h2>Per client session</h2><p class="muted">Sessions named by the client (e.g. a coding agent), most recent first; only the id is kept.</p>${totalsTable('Session · key', sessions.map((s) => [`${s.sessionId} · ${keyName(s.keyId)}`, s.totals]))}</section>`;
    return reply.type('text/html; charset=utf-8').send(layout({ title: 'Usage', active: 'usage', user, csrfToken: request.webSession!.csrfToken, body }));
  });
}
