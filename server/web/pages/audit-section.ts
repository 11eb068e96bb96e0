// The latest audit entries on /admin: who changed which key or user, when and from where.
import type { AuditRecord } from '../../store/audit-repo.ts';
import { shortTime } from '../format.ts';
import { html } from '../html.ts';
import { clipped } from '../table-cells.ts';

export function auditSection(entries: AuditRecord[]) {
  return html`<section class="card" id="audit"><h2>Recent changes</h2>
    <p class="muted">Keys and users created, changed or deleted, by whom and from which address (latest ${entries.length}; all with <code>gwctl admin audit</code>).</p>
    ${
      entries.length === 0
        ? html`<p class="muted">Nothing yet.</p>`
        : html`<div class="table-wrap"><table>
      <thead><tr><th>When</th><th>Who</th><th>From</th><th>Action</th><th>On</th><th>Details</th></tr></thead>
      <tbody>${entries.map(
        (e) => html`<tr><td>${shortTime(e.at)}</td><td>${clipped(e.actor)}</td><td>${e.address}</td><td>${e.action}</td><td>${clipped(e.target, html`<code>${e.target}</code>`)}</td><td class="muted">${e.details ? clipped(JSON.stringify(e.details)) : ''}</td></tr>`,
      )}</tbody></table></div>`
    }</section>`;
}
