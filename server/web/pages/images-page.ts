// /apps/images: the page shell; client/images-entry.ts (/assets/js/images.js) draws in the browser
// and lists the user's history with download and delete.
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { IMAGE_HISTORY_KEEP } from '../../store/image-history-repo.ts';
import { html } from '../html.ts';
import { layout } from '../layout.ts';
import { requirePage } from '../session/web-session.ts';
import { WEB_IMAGE_SIZES } from '../api/images-api.ts';
import { NOSCRIPT } from './noscript.ts';

export function registerImagesPage(app: FastifyInstance, deps: GatewayDeps): void {
  const onRequest = requirePage(deps);

  app.get('/apps/images', { onRequest }, async (request, reply) => {
    const models = deps.router.list('image');
    const body = html`<section class="card">
        ${NOSCRIPT}
        <h1>Images</h1>
        <form id="image-form" class="stack">
          <label>Prompt <textarea id="image-prompt" name="prompt" rows="3" required maxlength="4000" placeholder="A lighthouse at dusk, watercolour"></textarea></label>
          <div class="inline">
            <label>Model <select id="image-model" name="model">${models.map((m) => html`<option value="${m.id}">${m.displayName ?? m.id}</option>`)}</select></label>
            <label>Size <select id="image-size" name="size">${WEB_IMAGE_SIZES.map((s) => html`<option value="${s}" ${s === '512x512' ? html`selected` : ''}>${s}</option>`)}</select></label>
            <label>Count <select id="image-count" name="n">${[1, 2, 3, 4].map((n) => html`<option value="${n}">${n}</option>`)}</select></label>
            <button type="submit" class="primary" id="generate">Generate</button>
          </div>
        </form>
        <p id="image-status" class="muted" role="status" aria-live="polite"></p>
      </section>
      <section aria-labelledby="history-title">
        <div class="history-head">
          <h2 id="history-title">Your pictures</h2>
          <span class="muted" id="history-count">The latest ${IMAGE_HISTORY_KEEP} are kept.</span>
        </div>
        <p class="muted hidden" id="history-empty">Nothing drawn yet: what you generate appears here, ready to download.</p>
        <div class="gallery" id="gallery"></div>
        <div class="more"><button type="button" id="history-more" class="hidden">Show more</button></div>
      </section>`;
    return reply
      .type('text/html; charset=utf-8')
      .send(layout({ title: 'Images', active: 'images', user: request.webUser, csrfToken: request.webSession!.csrfToken, body, scripts: ['/assets/js/images.js'], styles: ['/assets/images.css'] }));
  });
}
