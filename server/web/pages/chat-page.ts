// /apps/chat: the page shell; client/chat-entry.ts (/assets/js/chat.js) works in the browser.
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { MAX_MESSAGE_CHARS, MAX_SEARCH_CHARS, MAX_SYSTEM_PROMPT_CHARS, MAX_TITLE_CHARS } from '../api/conversation-input.ts';
import { html } from '../html.ts';
import { layout } from '../layout.ts';
import { requirePage } from '../session/web-session.ts';
import { NOSCRIPT } from './noscript.ts';

export function registerChatPage(app: FastifyInstance, deps: GatewayDeps): void {
  const onRequest = requirePage(deps);

  app.get('/apps/chat', { onRequest }, async (request, reply) => {
    const models = deps.router.list('text');
    const body = html`<div class="chat-layout" data-max-title="${String(MAX_TITLE_CHARS)}">
      <aside class="history card" aria-label="Conversations">
        <div class="history-tools">
          <button type="button" class="primary" id="new-chat">New conversation</button>
          <form id="search-form" role="search">
            <label class="sr-only" for="search">Search conversations</label>
            <input type="search" id="search" placeholder="Search conversations" maxlength="${String(MAX_SEARCH_CHARS)}" autocomplete="off">
          </form>
        </div>
        <ul id="conversation-list" class="conversation-list"></ul>
        <p id="list-note" class="muted list-note" role="status"></p>
      </aside>
      <section class="chat card" aria-label="Chat">
        ${NOSCRIPT}
        <div class="chat-head">
          <label class="model-picker">Model <select id="model">${models.map((m) => html`<option value="${m.id}">${m.displayName ?? m.id}</option>`)}</select></label>
          <details id="system-settings" class="system-settings">
            <summary>System prompt <span id="system-state" class="muted"></span></summary>
            <form id="system-form" class="stack">
              <label for="system-prompt">Instructions sent before every message of this conversation</label>
              <textarea id="system-prompt" rows="4" maxlength="${String(MAX_SYSTEM_PROMPT_CHARS)}" placeholder="For example: Answer briefly, in British English."></textarea>
              <div class="row">
                <button type="submit" class="small">Save</button>
                <span id="system-status" class="muted" role="status" aria-live="polite"></span>
              </div>
            </form>
          </details>
          <span class="muted chat-status" id="chat-status" role="status" aria-live="polite"></span>
        </div>
        <div id="messages" class="messages" aria-live="polite" aria-relevant="additions"></div>
        <form id="chat-form" class="composer">
          <label class="sr-only" for="prompt">Message</label>
          <textarea id="prompt" rows="3" maxlength="${String(MAX_MESSAGE_CHARS)}" placeholder="Write a message. Enter sends, Shift+Enter adds a line." required></textarea>
          <div class="composer-actions">
            <button type="submit" class="primary" id="send">Send</button>
            <button type="button" id="stop" disabled>Stop</button>
          </div>
        </form>
      </section>
    </div>`;
    return reply.type('text/html; charset=utf-8').send(
      layout({
        title: 'Chat',
        active: 'chat',
        user: request.webUser,
        csrfToken: request.webSession!.csrfToken,
        body,
        scripts: ['/assets/js/chat.js'],
        styles: ['/assets/chat.css', '/assets/code-highlight.css'],
      }),
    );
  });
}
