// The page shell: skip link, header with navigation (folded behind a Menu button on phones), main
// content, and the per-session CSRF token for scripts.
import { html, type SafeHtml } from './html.ts';

export interface PageUser {
  username: string;
  isAdmin: boolean;
  /** operator, viewer or member; viewers see the operator pages too. */
  role?: string;
}

export interface PageOptions {
  title: string;
  active?: 'chat' | 'images' | 'keys' | 'usage' | 'admin' | 'admin-keys' | 'admin-support' | 'account';
  user?: PageUser;
  csrfToken?: string;
  body: SafeHtml;
  scripts?: string[];
  /** Page-specific stylesheets, after app.css. */
  styles?: string[];
  /** For pages that must not show a compact layout (login). */
  bare?: boolean;
  /**
   * The page is exactly the window's height and main is a flex column (body.fill in app.css), so an
   * app can keep its input on screen and scroll only its own content. Default: true for the chat.
   */
  fill?: boolean;
}

const NAV: Array<[NonNullable<PageOptions['active']>, string, string]> = [
  ['chat', '/apps/chat', 'Chat'],
  ['images', '/apps/images', 'Images'],
  ['keys', '/keys', 'API keys'],
  ['usage', '/usage', 'Usage'],
];
const ADMIN_NAV: Array<(typeof NAV)[number]> = [
  ['admin', '/admin', 'Users'],
  ['admin-keys', '/admin/keys', 'All keys'],
  ['admin-support', '/admin/support', 'Support'],
];

function header(page: PageOptions): SafeHtml {
  if (!page.user) return html`<header class="top"><a class="brand" href="/login"><img src="/assets/favicon.svg" alt="" width="22" height="22">gwctl</a></header>`;
  const entries = page.user.isAdmin || page.user.role === 'viewer' ? [...NAV, ...ADMIN_NAV] : NAV;
  const links = entries.map(([id, href, label]) =>
    id === page.active ? html`<a href="${href}" aria-current="page">${label}</a>` : html`<a href="${href}">${label}</a>`,
  );
  return html`<header class="top">
    <a class="brand" href="/apps/chat"><img src="/assets/favicon.svg" alt="" width="22" height="22">gwctl</a>
    <button type="button" class="menu-button" aria-expanded="false" aria-controls="site-nav">Menu</button>
    <div class="nav-panel" id="site-nav">
      <nav aria-label="Main">${links}</nav>
      <form method="post" action="/logout" class="logout">
        <input type="hidden" name="_csrf" value="${page.csrfToken ?? ''}">
        <a class="who" href="/account" title="Your account: password and sessions" ${page.active === 'account' ? html`aria-current="page"` : ''}>${page.user.username}</a>
        <button type="submit" class="link">Log out</button>
      </form>
    </div>
  </header>`;
}

export function layout(page: PageOptions): string {
  const classes = [page.bare ? 'bare' : '', (page.fill ?? page.active === 'chat') ? 'fill' : ''].filter(Boolean).join(' ');
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="csrf-token" content="${page.csrfToken ?? ''}">
<title>${page.title} · gwctl</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/app.css">
${(page.styles ?? []).map((href) => html`<link rel="stylesheet" href="${href}">`)}
<script src="/assets/nav.js"></script>
</head>
<body class="${classes}">
<a class="skip-link" href="#main">Skip to content</a>
${header(page)}
<main id="main" tabindex="-1">${page.body}</main>
${(page.scripts ?? []).map((src) => html`<script type="module" src="${src}"></script>`)}
</body>
</html>`.value;
}
