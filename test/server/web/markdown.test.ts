// The chat's markdown renderer (server/web/client/markdown.ts), loaded in Node: it has no DOM
// dependencies. Raw HTML stays text, links go only to http(s) and mail addresses, and nothing it
// writes needs an inline style (the pages' CSP forbids them).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderMarkdown } from '../../../server/web/client/markdown.ts';

test('renders emphasis, lists, headings and inline code', () => {
  assert.equal(renderMarkdown('**bold** and *it* and `x<y`'), '<p><strong>bold</strong> and <em>it</em> and <code>x&lt;y</code></p>\n');
  const list = renderMarkdown('# Title\n- a\n- b\n\n1. one');
  assert.match(list, /<h1>Title<\/h1>/);
  assert.match(list, /<ul>\n<li>a<\/li>\n<li>b<\/li>\n<\/ul>/);
  assert.match(list, /<ol>\n<li>one<\/li>\n<\/ol>/);
});

test('fenced code is highlighted inside a block with a copy button; unknown languages stay plain text', () => {
  const out = renderMarkdown('```js\nif (a < b) { return "x"; }\n```');
  assert.match(out, /^<div class="code-block"><div class="code-head"><span class="code-lang">JavaScript<\/span><button type="button" class="copy-code small">Copy<\/button><\/div>/);
  assert.match(out, /<pre><code class="hljs language-js"><span class="hljs-keyword">if<\/span> \(a &lt; b\)/);
  assert.match(out, /<span class="hljs-string">&quot;x&quot;<\/span>/);
  const plain = renderMarkdown('```nosuchlanguage\n<b>x</b>\n```');
  assert.match(plain, /<span class="code-lang">nosuchlanguage<\/span>/);
  assert.match(plain, /<pre><code class="hljs">&lt;b&gt;x&lt;\/b&gt;\n<\/code><\/pre>/);
});

test('the common languages are registered', () => {
  const languages = ['js', 'ts', 'json', 'python', 'bash', 'sh', 'shell', 'html', 'xml', 'css', 'sql', 'go', 'rust', 'java', 'c', 'cpp', 'yaml', 'markdown', 'diff'];
  for (const language of languages) {
    assert.match(renderMarkdown(`\`\`\`${language}\nx\n\`\`\``), new RegExp(`class="hljs language-${language}"`), language);
  }
});

test('links open in a new tab without opener or referrer; bare addresses become links', () => {
  assert.equal(
    renderMarkdown('[docs](https://example.com/a?b=1&c=2)'),
    '<p><a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">docs</a></p>\n',
  );
  assert.match(renderMarkdown('see https://example.com/x'), /<a href="https:\/\/example\.com\/x" target="_blank" rel="noopener noreferrer">https:\/\/example\.com\/x<\/a>/);
  assert.match(renderMarkdown('[mail](mailto:a@example.com)'), /<a href="mailto:a@example\.com"/);
});

test('images become links: the page loads nothing from other sites', () => {
  const out = renderMarkdown('![a cat](https://example.com/cat.png)');
  assert.doesNotMatch(out, /<img/);
  assert.match(out, /<a href="https:\/\/example\.com\/cat\.png" target="_blank" rel="noopener noreferrer">a cat<\/a>/);
});

test('table alignment becomes classes, never style attributes', () => {
  const out = renderMarkdown('| a | b |\n|:-:|--:|\n| 1 | 2 |');
  assert.match(out, /<th class="align-center">a<\/th>/);
  assert.match(out, /<td class="align-right">2<\/td>/);
  assert.doesNotMatch(out, /style=/);
});

const attacks = [
  '<img src=x onerror=alert(1)>',
  '<script>alert(1)</script>',
  '[x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x](  javascript:alert(1))',
  '[x](java\tscript:alert(1))',
  '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[x](vbscript:msgbox(1))',
  '<javascript:alert(1)>',
  '![x](javascript:alert(1))',
  '[x](https://a.example/"onmouseover="alert(1))',
  '**<b onclick=alert(1)>**',
  '```\n</code><script>alert(1)</script>\n```',
  '```js\n</code><script>alert(1)</script>\n```',
  '```"><script>alert(1)</script>\nx\n```',
  '`<svg onload=alert(1)>`',
  '<a href="javascript:alert(1)">x</a>',
  '<div style="position:fixed">x</div>',
];
for (const attack of attacks) {
  test(`never produces live markup from ${JSON.stringify(attack)}`, () => {
    const out = renderMarkdown(attack);
    assert.doesNotMatch(out, /<(img|script|svg|b|div style|iframe)\b/i);
    assert.doesNotMatch(out, /href="\s*(javascript|vbscript|data):/i);
    assert.doesNotMatch(out, /<a [^>]*href="(?!https?:|mailto:)/i);
    assert.doesNotMatch(out, /<[^>]*\son\w+=/i, 'no event handler attribute');
    assert.doesNotMatch(out, /<[^>]*\sstyle=/i, 'no style attribute');
  });
}

test('raw HTML is shown as text', () => {
  assert.equal(renderMarkdown('<script>alert(1)</script>'), '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n');
});
