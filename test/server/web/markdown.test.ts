import assert from 'node:assert/strict';
import { test } from 'node:test';
// The browser module itself, loaded in Node: it has no DOM dependencies.
import { renderMarkdown } from '../../../server/web/assets/markdown.js';

test('renders the supported constructs', () => {
  assert.equal(renderMarkdown('**bold** and *it* and `x<y`'), '<p><strong>bold</strong> and <em>it</em> and <code>x&lt;y</code></p>');
  assert.equal(renderMarkdown('# Title\n- a\n- b\n\n1. one'), '<h3>Title</h3>\n<ul><li>a</li><li>b</li></ul>\n<ol><li>one</li></ol>');
  assert.equal(renderMarkdown('```js\nif (a < b) {}\n```'), '<pre><code class="language-js">if (a &lt; b) {}</code></pre>');
  assert.match(renderMarkdown('[docs](https://example.com/a?b=1&c=2)'), /<a href="https:\/\/example\.com\/a\?b=1&amp;c=2" rel="noopener noreferrer nofollow" target="_blank">docs<\/a>/);
});

const attacks = [
  '<img src=x onerror=alert(1)>',
  '<script>alert(1)</script>',
  '[x](javascript:alert(1))',
  '[x](https://a.example/"onmouseover="alert(1))',
  '**<b onclick=alert(1)>**',
  '```\n</code><script>alert(1)</script>\n```',
  '`<svg onload=alert(1)>`',
];
for (const attack of attacks) {
  test(`never produces live markup from ${JSON.stringify(attack)}`, () => {
    const out = renderMarkdown(attack);
    assert.doesNotMatch(out, /<(img|script|svg|b)\b/i);
    assert.doesNotMatch(out, /href="javascript:/i);
    assert.doesNotMatch(out, /"\s*on\w+=/i);
  });
}
