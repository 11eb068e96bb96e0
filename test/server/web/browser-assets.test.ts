// The browser bundles (scripts/build/build-web.mjs, which the test runner runs first) as the gateway
// serves them from a checkout: minified ES modules under /assets/js/ with their source maps,
// revalidated on every load, and named by the pages that use them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestGateway, type TestGateway } from '../../helpers/test-app.ts';
import { webLogin } from '../../helpers/web-login.ts';

let gw: TestGateway;
before(async () => {
  gw = await createTestGateway();
});
after(() => gw.close());

test('the chat bundle is served minified with a linked source map that carries the TypeScript sources', async () => {
  const script = await gw.text.inject({ url: '/assets/js/chat.js' });
  assert.equal(script.statusCode, 200);
  assert.match(String(script.headers['content-type']), /^(application|text)\/javascript/);
  assert.match(String(script.headers['cache-control']), /max-age=0/, 'revalidated on every load');
  assert.ok(script.headers.etag, 'with an ETag to revalidate against');
  assert.match(script.payload, /\/\/# sourceMappingURL=chat\.js\.map\s*$/);
  const lines = script.payload.split('\n').filter((line) => !line.startsWith('//') && !line.startsWith('/*') && line.trim() !== '');
  assert.ok(lines.length < 40 && script.payload.length / lines.length > 1000, 'minified: a few long lines');

  const map = await gw.text.inject({ url: '/assets/js/chat.js.map' });
  assert.equal(map.statusCode, 200);
  const parsed = JSON.parse(map.payload) as { sources: string[]; sourcesContent: string[] };
  assert.ok(parsed.sources.some((s) => s.endsWith('server/web/client/chat-entry.ts')), parsed.sources.join(', '));
  assert.ok(parsed.sources.some((s) => s.endsWith('core/protocol/sse.ts')), 'the one SSE parser of core/ is bundled');
  assert.equal(parsed.sourcesContent.length, parsed.sources.length);
});

test('the chat page loads its bundle and style sheets from the gateway only', async () => {
  await gw.userWithKey('reader');
  const { cookie } = await webLogin(gw.text, 'reader');
  const page = await gw.text.inject({ url: '/apps/chat', headers: { cookie } });
  assert.equal(page.statusCode, 200);
  assert.match(page.payload, /<script type="module" src="\/assets\/js\/chat\.js"><\/script>/);
  for (const sheet of ['/assets/chat.css', '/assets/code-highlight.css']) {
    assert.ok(page.payload.includes(`<link rel="stylesheet" href="${sheet}">`), sheet);
    assert.equal((await gw.text.inject({ url: sheet })).statusCode, 200, sheet);
  }
  assert.doesNotMatch(page.payload, /<script>|style="/, 'no inline script or style');
  assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
  assert.equal((await gw.text.inject({ url: '/assets/js/no-such-page.js' })).statusCode, 404);
  assert.equal((await gw.text.inject({ url: '/assets/chat.js' })).statusCode, 404, 'the old hand-written module is gone');
});
