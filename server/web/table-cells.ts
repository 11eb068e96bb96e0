// Table cells that never wrap inside a value (ids, keys, names, times, JSON): a long value is cut with
// an ellipsis and shown whole on hover (title) and on keyboard focus (app.css, .clip:focus).
import { html, type SafeHtml } from './html.ts';

export function clipped(full: string, shown?: SafeHtml | string): SafeHtml {
  return html`<span class="clip" tabindex="0" title="${full}">${shown ?? full}</span>`;
}
