// The page shell: header with navigation, main content, and the per-session CSRF token for scripts.
import { html, type SafeHtml } from './html.ts';

export interface PageUser {
  username: string;
  isAdmin: boolean;
}

export interface PageOptions {
  title: string;
  active?: 'chat' | 'images' | 'keys' | 'usage' | 'admin';
  user?: PageUser;
  csrfToken?: string;
  body: SafeHtml;
  scripts?: string[];
  /** Page-specific stylesheets, after app.css. */
  styles?: string[];
  /** For pages that must not show a compact layout (login). */
  bare?: boolean;
}

const NAV: Array<[PageOptions['active'], string, string]> = [
  ['chat', '/apps/chat', 'Chat'],
  ['images', '/apps/images', 'Images'],
  ['keys', '/keys', 'API keys'],
  ['usage', '/usage', 'Usage'],
];

export function layout(page: PageOptions): string {
  const links = page.user
    ? [...NAV, ...(page.user.isAdmin ? ([['admin', '/admin', 'Operators']] as typeof NAV) : [])].map(
        ([id, href, label]) => html`<a href="${href}" class="${id === page.active ? 'active' : ''}" ${id === page.active ? html`aria-current="page"` : ''}>${label}</a>`,
      )
    : [];
  const header = page.user
    ? html`<header class="top">
        <a class="brand" href="/apps/chat">gwctl</a>
        <nav aria-label="Main">${links}</nav>
        <form method="post" action="/logout" class="logout">
          <input type="hidden" name="_csrf" value="${page.csrfToken ?? ''}">
          <span class="who">${page.user.username}</span>
          <button type="submit" class="link">Log out</button>
        </form>
      </header>`
    : html`<header class="top"><a class="brand" href="/login">gwctl</a></header>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="csrf-token" content="${page.csrfToken ?? ''}">
<title>${page.title} · gwctl</title>
<link rel="stylesheet" href="/assets/app.css">
${(page.styles ?? []).map((href) => html`<link rel="stylesheet" href="${href}">`)}
</head>
<body class="${page.bare ? 'bare' : ''}">
${header}
<main id="main">${page.body}</main>
${(page.scripts ?? []).map((src) => html`<script type="module" src="${src}"></script>`)}
</body>
</html>`.value;
}
