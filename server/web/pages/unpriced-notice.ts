// The operator's warning on /admin: models used without a price, whose cost is recorded as unknown.
import { html } from '../html.ts';

export function unpricedNotice(models: string[]) {
  if (models.length === 0) return '';
  return html`<p class="error" role="status" id="unpriced-models">No price for ${models.join(', ')}: the cost of their requests is unknown (not zero). Set one with <code>gwctl admin price set --model &lt;name&gt; --input … --output …</code> or in the providers file.</p>`;
}
