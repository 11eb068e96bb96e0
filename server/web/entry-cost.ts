// One request's cost in the request log: the amount, marked "≈ … (estimated)" when the gateway
// estimated its tokens (a stream cut before the usage report), or "unknown" when the model had no price.
import { formatMicros } from '../pricing/money.ts';
import type { RequestLogRecord } from '../store/request-log-repo.ts';
import { html } from './html.ts';

export function entryCost(entry: Pick<RequestLogRecord, 'costMicros' | 'costEstimated'>, currency: string | undefined) {
  if (entry.costMicros === null) return html`<span class="muted" title="The model had no price when this request was recorded">unknown</span>`;
  const amount = `${formatMicros(entry.costMicros)}${currency ? ` ${currency}` : ''}`;
  return entry.costEstimated ? html`<span title="Tokens estimated: the answer ended before its usage report">≈ ${amount} (estimated)</span>` : amount;
}
