// /usage: the person's own usage over a chosen period (last 24 hours by hour, 7 / 30 / 90 days by
// day, or a custom range): stacked charts of requests, tokens and errors by model or by key, with
// tables of the same numbers; what is left of key budgets; totals per key, per model and per client
// session (for clients that name their sessions, such as coding agents). /usage.csv exports the
// period. Everything works without JavaScript: the period and grouping are links and a GET form;
// client/usage-entry.ts (/assets/js/usage.js) adds a tooltip per bar.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayDeps } from '../../gateway-deps.ts';
import type { UsageRow } from '../../store/usage-repo.ts';
import { OUTCOME_LABELS, type UsageOutcome } from '../../usage/usage-outcome.ts';
import { formatCount } from '../format.ts';
import { costText } from '../cost-text.ts';
import { formatMicros } from '../../pricing/money.ts';
import { html, type SafeHtml } from '../html.ts';
import { layout } from '../layout.ts';
import { requirePage } from '../session/web-session.ts';
import { stackedChart, type ChartBucket } from '../stacked-chart.ts';
import { usageCsv } from '../usage-csv.ts';
import { bucketOf, parsePeriod, PeriodError, periodQuery, type UsagePeriod, type UsageQueryString } from '../usage-period.ts';
import { keyNamer, perSession, stackedSeries, summarize, type Totals } from '../usage-summary.ts';
import { budgetsSection } from './budgets-section.ts';
import { clipped } from '../table-cells.ts';
import { registerRequestLogPage } from './request-log-page.ts';

const SESSIONS_SHOWN = 50;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const PRESETS: Array<[UsagePeriod['name'], string]> = [
  ['24h', '24 hours'],
  ['7d', '7 days'],
  ['30d', '30 days'],
  ['90d', '90 days'],
];

export function totalsTable(label: string, rows: Array<[string, Totals]>, currency?: string) {
  if (rows.length === 0) return html`<p class="muted">No usage in this period.</p>`;
  return html`<div class="table-wrap"><table>
    <thead><tr><th>${label}</th><th class="num">Requests</th><th class="num">Input tokens</th><th class="num">Output tokens</th><th class="num">Cost</th><th class="num">Errors</th></tr></thead>
    <tbody>${rows.map(
      ([name, t]) => html`<tr><td>${clipped(name)}</td><td class="num">${formatCount(t.requests)}</td><td class="num">${formatCount(t.inputTokens)}</td><td class="num">${formatCount(t.outputTokens)}</td><td class="num">${costText(t, currency)}</td><td class="num">${formatCount(t.errors)}</td></tr>`,
    )}</tbody>
  </table></div>`;
}

const counted = (n: number, noun: string) => `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;
const modelName = (model: string) => (model === '(none)' ? 'no model (model lists, refused requests)' : model);

function chartBucket(period: UsagePeriod, id: string): ChartBucket {
  if (period.bucket === 'hour') return { label: `${id.slice(0, 10)} ${id.slice(11, 16)} UTC`, tick: id.slice(11, 16) };
  return { label: id, tick: `${MONTHS[Number(id.slice(5, 7)) - 1]} ${Number(id.slice(8, 10))}` };
}

/** The period links, the custom range form and the grouping links. */
function controls(period: UsagePeriod | undefined, query: UsageQueryString): SafeHtml {
  const group = period?.group ?? (query.group === 'key' ? 'key' : 'model');
  const link = (params: Record<string, string>) => `/usage?${new URLSearchParams(params).toString()}`;
  const current: Record<string, string> = period ? (period.name === 'custom' ? { period: 'custom', from: period.from, to: period.to } : { period: period.name }) : { period: '30d' };
  return html`<section class="card usage-controls" aria-label="Period and grouping">
    <nav class="chips" aria-label="Period">${PRESETS.map(([name, label]) => html`<a class="chip" href="${link({ period: name, group })}" ${period?.name === name ? html`aria-current="true"` : ''}>${label}</a>`)}</nav>
    <form method="get" action="/usage" class="inline" id="range-form">
      <input type="hidden" name="period" value="custom">
      <input type="hidden" name="group" value="${group}">
      <label>From <input type="date" name="from" required value="${query.from ?? period?.from ?? ''}"></label>
      <label>To <input type="date" name="to" required value="${query.to ?? period?.to ?? ''}"></label>
      <button type="submit">Show range</button>
    </form>
    <nav class="chips" aria-label="Stack the charts by">
      <span class="muted">Stack by</span>
      <a class="chip" href="${link({ ...current, group: 'model' })}" ${group === 'model' ? html`aria-current="true"` : ''}>model</a>
      <a class="chip" href="${link({ ...current, group: 'key' })}" ${group === 'key' ? html`aria-current="true"` : ''}>key</a>
    </nav>
  </section>`;
}

function inPeriod<T extends { hour: string }>(rows: T[], period: UsagePeriod): T[] {
  return rows.filter((r) => r.hour >= period.sinceHour && r.hour < period.untilHour);
}

async function periodRows(deps: GatewayDeps, userId: string, period: UsagePeriod): Promise<UsageRow[]> {
  await deps.usage.flush().catch(() => undefined);
  return inPeriod(await deps.store.usage.rows({ userId, sinceHour: period.sinceHour }), period);
}

export function charts(period: UsagePeriod, rows: UsageRow[], keyName: (id: string) => string, currency?: string): SafeHtml {
  const series = stackedSeries(
    rows,
    period.buckets,
    (hour) => bucketOf(period, hour),
    (row) => (period.group === 'key' ? row.keyId : row.model),
    period.group === 'key' ? keyName : modelName,
  );
  const buckets = period.buckets.map((id) => chartBucket(period, id));
  const bucketHeading = period.bucket === 'hour' ? 'Hour' : 'Day';
  const chart = (id: string, title: string, unit: string, pick: (s: (typeof series)[number]) => number[], format?: (n: number) => string) =>
    stackedChart({ id, title, unit, buckets, bucketHeading, series: series.map((s) => ({ name: s.name, values: pick(s) })), format });
  return html`<section class="card usage-charts" aria-label="Charts">
    ${chart('chart-requests', 'Requests', 'requests', (s) => s.requests)}
    ${chart('chart-tokens', 'Tokens (input + output)', 'tokens', (s) => s.tokens)}
    ${chart('chart-errors', 'Errors', 'errors', (s) => s.errors)}
    ${chart('chart-cost', `Cost (${currency ?? 'no prices set'}; priced requests)`, currency ?? 'cost', (s) => s.cost, formatMicros)}
  </section>`;
}

export function registerUsagePage(app: FastifyInstance, deps: GatewayDeps): void {
  const onRequest = requirePage(deps);

  app.get<{ Querystring: UsageQueryString }>('/usage', { onRequest }, async (request, reply) => {
    const user = request.webUser!;
    const page = (body: SafeHtml) => layout({ title: 'Usage', active: 'usage', user, csrfToken: request.webSession!.csrfToken, body, styles: ['/assets/usage.css'], scripts: ['/assets/js/usage.js'] });
    let period: UsagePeriod;
    try {
      period = parsePeriod(request.query);
    } catch (error) {
      if (!(error instanceof PeriodError)) throw error;
      const body = html`<div class="page-head"><h1>Your usage</h1></div>
        <p class="error" role="alert" id="period-error">${error.message}</p>
        ${controls(undefined, request.query)}`;
      return reply.code(400).type('text/html; charset=utf-8').send(page(body));
    }
    const rows = await periodRows(deps, user.id, period);
    const summary = summarize(rows, []);
    const endedEarly = new Map<UsageOutcome, number>();
    for (const o of inPeriod(await deps.store.usage.outcomes({ userId: user.id, sinceHour: period.sinceHour }), period)) {
      endedEarly.set(o.outcome as UsageOutcome, (endedEarly.get(o.outcome as UsageOutcome) ?? 0) + o.count);
    }
    const askedAs = new Map<string, number>();
    for (const r of inPeriod(await deps.store.usage.requestedModels({ userId: user.id, sinceHour: period.sinceHour }), period)) {
      const pair = `${r.requestedModel} → ${modelName(r.model)}`;
      askedAs.set(pair, (askedAs.get(pair) ?? 0) + r.count);
    }
    const sessions = perSession(inPeriod(await deps.store.usage.sessionRows({ userId: user.id, sinceHour: period.sinceHour }), period), SESSIONS_SHOWN);
    const keyRecords = await deps.store.keys.listForUser(user.id);
    const keyName = keyNamer(keyRecords);
    const currency = deps.prices?.currency;
    const body = html`
      <div class="page-head">
        <h1>Your usage</h1>
        <p class="muted" id="period-summary">${period.description}. ${counted(summary.total.requests, 'request')}, ${counted(summary.total.inputTokens + summary.total.outputTokens, 'token')}, ${counted(summary.total.errors, 'error')}. Cost <span id="period-cost">${costText(summary.total, currency)}</span>.</p>
        <p><a class="button small" id="csv-link" href="/usage.csv?${periodQuery(period)}" download>Download CSV</a> <a class="button small" href="/usage/requests">Request log</a></p>
      </div>
      ${controls(period, request.query)}
      ${endedEarly.size === 0 ? '' : html`<p class="muted">Ended early, counted with the tokens used until then: ${[...endedEarly].map(([outcome, count]) => `${formatCount(count)} × ${OUTCOME_LABELS[outcome] ?? outcome}`).join('; ')}.</p>`}
      ${askedAs.size === 0 ? '' : html`<p class="muted" id="asked-as">Asked for under another name and answered by a served model (model aliases): ${[...askedAs].map(([pair, count]) => `${formatCount(count)} × ${pair}`).join('; ')}.</p>`}
      ${await budgetsSection(deps, keyRecords, user)}
      ${charts(period, rows, keyName, currency)}
      <section class="card"><h2>Per key</h2>${totalsTable('Key', [...summary.perKey.entries()].map(([id, t]) => [keyName(id), t]), currency)}</section>
      <section class="card"><h2>Per model</h2>${totalsTable('Model', [...summary.perModel.entries()].map(([model, t]) => [modelName(model), t]), currency)}</section>
      <section class="card"><h2>Per client session</h2><p class="muted">Sessions named by the client (e.g. a coding agent), most recent first; only the id is kept.</p>${totalsTable('Session · key', sessions.map((s) => [`${s.sessionId} · ${keyName(s.keyId)}`, s.totals]), currency)}</section>`;
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page(body));
  });

  app.get<{ Querystring: UsageQueryString }>('/usage.csv', { onRequest }, async (request: FastifyRequest<{ Querystring: UsageQueryString }>, reply: FastifyReply) => {
    let period: UsagePeriod;
    try {
      period = parsePeriod(request.query);
    } catch (error) {
      if (!(error instanceof PeriodError)) throw error;
      return reply.code(400).type('text/plain; charset=utf-8').send(`${error.message}\n`);
    }
    const user = request.webUser!;
    const rows = await periodRows(deps, user.id, period);
    const keyName = keyNamer(await deps.store.keys.listForUser(user.id));
    const start = (bucket: string) => (period.bucket === 'hour' ? `${bucket.slice(0, 13)}:00:00Z` : `${bucket}T00:00:00Z`);
    return reply
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="usage-${period.from}-to-${period.to}-by-${period.bucket}.csv"`)
      .type('text/csv; charset=utf-8')
      .send(usageCsv(rows, period.buckets, (hour) => bucketOf(period, hour), start, keyName, deps.prices?.currency));
  });

  registerRequestLogPage(app, deps);
}
