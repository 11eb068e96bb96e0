// /admin/users/:id/usage: one user's requests, tokens and errors per day (or hour) by model or by key,
// as the stacked charts of their own /usage page, for operators. Period and grouping are links.
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { formatCount } from '../format.ts';
import { html } from '../html.ts';
import { layout } from '../layout.ts';
import { parsePeriod, PeriodError, type UsagePeriod, type UsageQueryString } from '../usage-period.ts';
import { keyNamer, summarize } from '../usage-summary.ts';
import { charts, totalsTable } from './usage.ts';
import { costText } from '../cost-text.ts';

const PRESETS: Array<[string, string]> = [
  ['24h', '24 hours'],
  ['7d', '7 days'],
  ['30d', '30 days'],
  ['90d', '90 days'],
];

export function registerAdminUserUsage(app: FastifyInstance, deps: GatewayDeps, onRequest: onRequestHookHandler[]): void {
  app.get<{ Params: { id: string }; Querystring: UsageQueryString }>('/admin/users/:id/usage', { onRequest }, async (request, reply) => {
    const send = (status: number, title: string, body: ReturnType<typeof html>) =>
      reply
        .code(status)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(layout({ title, active: 'admin', user: request.webUser, csrfToken: request.webSession!.csrfToken, body, styles: ['/assets/usage.css'], scripts: ['/assets/js/usage.js'] }));
    const user = await deps.store.users.findById(request.params.id);
    if (!user) return send(404, 'Not found', html`<section class="card narrow"><h1>No such user</h1><p><a href="/admin">Back to the users</a></p></section>`);
    const now = new Date((deps.now ?? Date.now)());
    let period: UsagePeriod;
    let problem: string | undefined;
    try {
      period = parsePeriod(request.query, now);
    } catch (error) {
      if (!(error instanceof PeriodError)) throw error;
      problem = error.message;
      period = parsePeriod({}, now);
    }
    await deps.usage.flush().catch(() => undefined);
    const rows = (await deps.store.usage.rows({ userId: user.id, sinceHour: period.sinceHour })).filter((r) => r.hour < period.untilHour);
    const keyName = keyNamer(await deps.store.keys.listForUser(user.id));
    const summary = summarize(rows, []);
    const link = (params: Record<string, string>) => `/admin/users/${user.id}/usage?${new URLSearchParams(params).toString()}`;
    const body = html`
      <div class="page-head"><h1>Usage of ${user.username}</h1><p class="muted">${period.description}. <a href="/admin">← Users</a></p></div>
      ${problem ? html`<p class="error" role="alert">${problem}</p>` : ''}
      <section class="card usage-controls" aria-label="Period and grouping">
        <nav class="chips" aria-label="Period">${PRESETS.map(([name, label]) => html`<a class="chip" href="${link({ period: name, group: period.group })}" ${period.name === name ? html`aria-current="true"` : ''}>${label}</a>`)}</nav>
        <nav class="chips" aria-label="Group by">${(['model', 'key'] as const).map((g) => html`<a class="chip" href="${link({ period: period.name === 'custom' ? '30d' : period.name, group: g })}" ${period.group === g ? html`aria-current="true"` : ''}>by ${g}</a>`)}</nav>
      </section>
      ${charts(period, rows, keyName, deps.prices?.currency)}
      <section class="card"><h2>Per model</h2>${totalsTable('Model', [...summary.perModel.entries()], deps.prices?.currency)}
        <p class="muted">${formatCount(summary.total.requests)} requests in this period, costing ${costText(summary.total, deps.prices?.currency)}.</p></section>`;
    return send(200, `Usage of ${user.username}`, body);
  });
}
