// /admin/support and /admin/requests/<id> (shown as "Support"): an operator pastes a request id, a
// masked key (sk-…a1b2), a key id or a fingerprint and gets the verdict: the cause, what happened,
// the operator's remedy and the one to send the user. Works without JavaScript (a GET form).
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { explainRequest, type RequestVerdict } from '../../support/explain-request.ts';
import { findKey, type KeyFindResult } from '../../support/find-key.ts';
import type { FailureCount } from '../../support/recent-failures.ts';
import { shortTime } from '../format.ts';
import { html, type SafeHtml } from '../html.ts';
import { layout } from '../layout.ts';
import { clipped } from '../table-cells.ts';

const REQUEST_ID = /^req_[A-Za-z0-9]+$/;

function searchForm(q: string): SafeHtml {
  return html`<form method="get" action="/admin/support" class="inline" role="search" id="support-search">
    <label>Request id or key <input type="search" name="q" value="${q}" placeholder="req_…, sk-…a1b2, key id or fingerprint" size="40"></label>
    <button type="submit">Look up</button>
  </form>`;
}

function commands(list: readonly string[]): SafeHtml {
  return list.length ? html`<pre class="commands">${list.map((c) => `$ ${c}`).join('\n')}</pre>` : html``;
}

function verdictView(v: RequestVerdict): SafeHtml {
  const r = v.request;
  const rows: Array<[string, string | null]> = [
    ['When', shortTime(v.at)],
    ['Request', `${r.method ?? '?'} ${r.path ?? '?'} (${r.protocol ?? '?'})`],
    ['Answer', `${v.status}${r.errorCode ? ` ${r.errorCode}` : ''}${r.outcome ? ` [${r.outcome}]` : ''}, ${Math.round(r.latencyMs)} ms`],
    ['User', r.user],
    ['Key', r.keyId ? `${r.keyId} ${r.keyHint ?? ''}` : r.keyHint],
    ['Model', r.model ? `${r.model}${r.requestedModel ? ` (asked for ${r.requestedModel})` : ''}` : null],
    ['Provider', r.provider ? `${r.provider}${r.upstreamStatus ? ` answered ${r.upstreamStatus}` : ''}${r.upstreamRequestId ? `, its id ${r.upstreamRequestId}` : ''}` : null],
  ];
  return html`<section class="card" id="verdict" data-cause="${v.cause}">
    <h2>${v.cause}</h2>
    <p><strong>${v.summary}</strong></p>
    <ul class="facts">${v.facts.map((f) => html`<li>${f}</li>`)}</ul>
    <p class="muted">${v.why}</p>
    <h3>Operator</h3><p>${v.remedy}</p>${commands(v.operatorCommands)}
    <h3>Tell the user</h3><p id="user-remedy">${v.userRemedy}</p>${commands(v.userCommands)}
    <div class="table-wrap"><table class="details"><tbody>${rows
      .filter(([, value]) => value)
      .map(([label, value]) => html`<tr><th scope="row">${label}</th><td>${clipped(value!)}</td></tr>`)}</tbody></table></div>
  </section>`;
}

function failures(list: readonly FailureCount[]): SafeHtml {
  if (list.length === 0) return html`<span class="muted">none</span>`;
  return html`${list.map((f) => html`<div>${f.count} × ${f.cause}${f.lastRequestId ? html` (<a href="/admin/requests/${f.lastRequestId}">last</a>)` : ''}</div>`)}`;
}

function keyFindView(result: KeyFindResult): SafeHtml {
  if (result.keys.length === 0 && result.refusedValues.length === 0) {
    return html`<p class="notice" role="status">Nothing matches ${result.query} (read as a ${result.kind}; the request log covers ${result.days} days).</p>`;
  }
  return html`<section class="card" id="key-find">
    <h2>Keys</h2>
    <div class="table-wrap"><table>
      <thead><tr><th>Key</th><th>Owner</th><th>State</th><th>Created</th><th>Last used</th><th>Failures, ${result.days} days</th></tr></thead>
      <tbody>${result.keys.map((k) => html`<tr data-key-id="${k.keyId}"><td>${clipped(`${k.keyId} ${k.hint}`)}</td><td>${k.owner ?? '?'}</td>
        <td>${k.state}${k.deletedAt ? html`<div class="muted">${shortTime(k.deletedAt)}${k.deletedBy ? ` by ${k.deletedBy}` : ''}</div>` : ''}</td>
        <td>${shortTime(k.createdAt)}</td><td>${shortTime(k.lastUsedAt)}</td><td>${failures(k.recentFailures)}</td></tr>`)}</tbody>
    </table></div>
    ${result.refusedValues.length
      ? html`<h3>Values no key ever had</h3><ul>${result.refusedValues.map((v) => html`<li><code>${v.hint ?? ''}</code> fingerprint <code>${v.fingerprint}</code>: ${v.requests} request(s), last ${shortTime(v.lastAt)}${v.lastRequestId ? html` (<a href="/admin/requests/${v.lastRequestId}">look up</a>)` : ''}</li>`)}</ul>`
      : ''}
  </section>`;
}

export function registerAdminSupportPage(app: FastifyInstance, deps: GatewayDeps, onRequest: onRequestHookHandler[]): void {
  const send = (request: FastifyRequest, reply: FastifyReply, title: string, body: SafeHtml) =>
    reply
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(layout({ title, active: 'admin-support', user: request.webUser, csrfToken: request.webSession!.csrfToken, body }));
  const head = html`<div class="page-head"><h1>Support</h1><p class="muted">Paste the request id a user reported (from the answer's x-request-id or request-id header, or its error body), or the masked key they see.</p></div>`;

  app.get<{ Querystring: { q?: string } }>('/admin/support', { onRequest }, async (request, reply) => {
    const q = String(request.query.q ?? '').trim().slice(0, 200);
    if (q && REQUEST_ID.test(q)) return reply.redirect(`/admin/requests/${encodeURIComponent(q)}`, 303);
    const body = html`${head}<section class="card">${searchForm(q)}</section>${q ? keyFindView(await findKey(deps.store, q)) : ''}`;
    return send(request, reply, 'Support', body);
  });

  app.get<{ Params: { id: string } }>('/admin/requests/:id', { onRequest }, async (request, reply) => {
    const id = request.params.id.slice(0, 200);
    const verdict = await explainRequest(deps.store, id, { publicUrl: deps.settings.publicUrl });
    const body = verdict
      ? html`${head}<section class="card">${searchForm(id)}</section>${verdictView(verdict)}`
      : html`${head}<section class="card">${searchForm(id)}</section><p class="notice error" role="alert" id="not-found">No request with id ${id} in the request log. Check the id; the log is written about once a second and kept 30 days.</p>`;
    return send(request, verdict ? reply : reply.code(404), `Request ${id}`, body);
  });
}
