// Renders chat answers: markdown-it with raw HTML off, links only to http(s) and mail addresses
// (opening in a new tab without a referrer or opener), images shown as links (the page loads no
// third-party content), table alignment as classes instead of style attributes (the CSP forbids
// inline styles), and fenced code highlighted inside a block with a copy button.
import MarkdownIt from 'markdown-it';
import { highlightCode } from './highlight.ts';

const SAFE_URL = /^(https?:\/\/|mailto:)/i;

const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
md.validateLink = (url) => SAFE_URL.test(url.trim());

const escapeHtml = md.utils.escapeHtml;

function codeBlock(content: string, info: string): string {
  const requested = info.trim().split(/\s+/)[0] ?? '';
  const highlighted = highlightCode(content, requested);
  const label = highlighted?.language ?? (requested || 'text');
  const code = highlighted ? highlighted.html : escapeHtml(content);
  const languageClass = highlighted ? ` language-${escapeHtml(requested)}` : '';
  return (
    `<div class="code-block"><div class="code-head"><span class="code-lang">${escapeHtml(label)}</span>` +
    `<button type="button" class="copy-code small">Copy</button></div>` +
    `<pre><code class="hljs${languageClass}">${code}</code></pre></div>\n`
  );
}

md.renderer.rules.fence = (tokens, idx) => codeBlock(tokens[idx]!.content, tokens[idx]!.info);
md.renderer.rules.code_block = (tokens, idx) => codeBlock(tokens[idx]!.content, '');

md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  const token = tokens[idx]!;
  token.attrSet('target', '_blank');
  token.attrSet('rel', 'noopener noreferrer');
  return self.renderToken(tokens, idx, options);
};

md.renderer.rules.image = (tokens, idx) => {
  const token = tokens[idx]!;
  const src = String(token.attrGet('src') ?? '');
  const alt = token.children ? md.renderer.renderInlineAsText(token.children, md.options, {}) : token.content;
  return `<a href="${escapeHtml(src)}" target="_blank" rel="noopener noreferrer">${escapeHtml(alt || src)}</a>`;
};

md.core.ruler.push('alignment_classes', (state) => {
  for (const token of state.tokens) {
    if (token.type !== 'th_open' && token.type !== 'td_open') continue;
    const align = /text-align:\s*(left|center|right)/.exec(String(token.attrGet('style') ?? ''))?.[1];
    if (!token.attrs) continue;
    token.attrs = token.attrs.filter(([name]) => name !== 'style');
    if (align) token.attrJoin('class', `align-${align}`);
  }
  return true;
});

export function renderMarkdown(source: string): string {
  return md.render(source);
}
