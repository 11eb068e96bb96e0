// /apps/chat: the page shell; client/chat-entry.ts (/assets/js/chat.js) works in the browser.
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { html } from '../html.ts';
import { layout } from '../layout.ts';
import { requirePage } from '../session/web-session.ts';
import { NOSCRIPT } from './noscript.ts';

export function registerChatPage(app: FastifyInstance, deps: GatewayDeps): void {
  const onRequest = requirePage(deps);

  app.get('/apps/chat', { onRequest }, async (request, reply) => {
    const models = deps.router.list('text');
    const body = html`<div class="chat-layout">
      <aside class="history card" aria-label="Conversations">
        <button type="button" class="primary" id="new-chat">New conversation</button>
        <ul id="conversation-list" class="plain"></ul>
      </aside>
      <section class="chat card" aria-label="Chat">
        ${NOSCRIPT}
        <div class="chat-head">
          <label>Model <select id="model">${models.map((m) => html`<option value="${m.id}">${m.displayName ?? m.id}</option>`)}</select></label>
          <span class="muted" id="chat-status" role="status" aria-live="polite"></span>
        </div>
        <div id="messages" class="messages" aria-live="polite"></div>
        <form id="chat-form" class="composer">
          <label class="sr-only" for="prompt">Message</label>
          <textarea id="prompt" rows="3" placeholder="Write a message. Enter sends, Shift+Enter adds a line." required></textarea>
          <div class="composer-actions">
            <button type="submit" class="primary" id="send">Send</button>
            <button type="button" id="stop" disabled>Stop</button>
          </div>
        </form>
      </section>
    </div>`;
    return reply
      .type('text/html; charset=utf-8')
      .send(layout({ title: 'Chat', active: 'chat', user: request.webUser, csrfToken: request.webSession!.csrfToken, body, scripts: ['/assets/js/chat.js'] }));
  });
}
