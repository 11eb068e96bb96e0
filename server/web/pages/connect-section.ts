// "Connect a client" on the keys page (and, with the new key filled in, in the new-key panel): the
// base URLs, the /v1 rule per kind of client, and copyable examples (server/web/client-examples.ts).
import type { GatewayDeps } from '../../gateway-deps.ts';
import { clientGuide } from '../client-examples.ts';
import { html } from '../html.ts';

export function guideFor(deps: GatewayDeps, key?: string) {
  return clientGuide({
    publicUrl: deps.settings.publicUrl,
    publicImageUrl: deps.settings.publicImageUrl,
    textModel: deps.router.list('text')[0]?.id,
    imageModel: deps.router.list('image')[0]?.id,
    key,
  });
}

export function connectSection(deps: GatewayDeps, options: { key?: string; idPrefix?: string } = {}) {
  const guide = guideFor(deps, options.key);
  const prefix = options.idPrefix ?? 'connect';
  return html`<section class="card" id="${prefix}" aria-labelledby="${prefix}-title">
    <h2 id="${prefix}-title">Connect a client</h2>
    <ul class="connect-list">${guide.entries.map(
      (e) => html`<li data-client="${e.type}"><strong>${e.title}</strong>: <code>${e.baseUrl}</code> <span class="muted">(${e.baseUrlNote})</span></li>`,
    )}</ul>
    <p class="muted">Text API: <code>${guide.textBaseUrl}</code> · image API: <code>${guide.imageBaseUrl}</code>. Chat-completions, Responses and image clients take the address <strong>with</strong> <code>/v1</code>; messages-protocol clients take it <strong>without</strong> (they add <code>/v1/messages</code> themselves). The most common mistake is a <code>/v1</code> too many or too few.</p>
    ${guide.examples.map(
      (x) => html`<details class="example"><summary>${x.title}</summary>
        <div class="copy-row"><pre id="${prefix}-${x.id}"><code>${x.text}</code></pre><button type="button" class="small" data-copy="#${prefix}-${x.id}">Copy</button></div>
      </details>`,
    )}
  </section>`;
}
