// Unknown addresses a browser asks for (outside the API paths): an HTML page in the site's shell with
// links onward, instead of the API's JSON error. API paths (/v1, /admin/api, /web/api, health,
// metrics) and clients that do not ask for HTML keep the JSON answer with its hints.
import type { FastifyRequest } from 'fastify';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { html } from '../html.ts';
import { layout } from '../layout.ts';
import { loadSession } from '../session/web-session.ts';

const API_PATHS = /^\/(v1|admin\/api|web\/api|health|ready|metrics)(\/|$|\?)/;

export function webNotFoundPage(deps: GatewayDeps) {
  return async (request: FastifyRequest): Promise<string | undefined> => {
    const path = request.url.split('?', 1)[0]!;
    const wantsHtml = /text\/html/.test(String(request.headers.accept ?? ''));
    if (API_PATHS.test(path) || !wantsHtml || (request.method !== 'GET' && request.method !== 'HEAD')) return undefined;
    await loadSession(deps, request).catch(() => undefined);
    const user = request.webUser;
    const body = html`<section class="card narrow" id="not-found">
      <h1>Page not found</h1>
      <p>There is no page at <code>${path}</code>.</p>
      <p>${user ? html`<a href="/apps/chat">Chat</a> · <a href="/keys">API keys</a> · <a href="/usage">Usage</a>` : html`<a href="/login">Log in</a>`}</p>
      <p class="muted">Looking for the API? It lives under <code>${deps.settings.publicUrl}/v1</code> (chat-completions clients) and <code>${deps.settings.publicUrl}</code> (messages clients).</p>
    </section>`;
    return layout({ title: 'Not found', user, csrfToken: request.webSession?.csrfToken, body });
  };
}
