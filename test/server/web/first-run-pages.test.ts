// First contact with the pages: an unknown web address answers an HTML page (404) while API paths
// keep their JSON errors; a request without a Host header answers 400 in the route's shape, never 500.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createTestGateway, type TestGateway } from '../../helpers/test-app.ts';

function rawGet(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\n\r\n`));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (data += chunk));
    socket.on('end', () => resolve(data));
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
  });
}

describe('first contact with the pages', () => {
  let gateway: TestGateway;
  let port: number;
  before(async () => {
    gateway = await createTestGateway();
    await gateway.text.listen({ port: 0, host: '127.0.0.1' });
    port = (gateway.text.server.address() as { port: number }).port;
  });
  after(() => gateway?.close());

  test('an unknown web address is an HTML page for a browser; API paths and non-browsers keep JSON', async () => {
    const page = await gateway.text.inject({ url: '/settings/profile', headers: { accept: 'text/html,application/xhtml+xml' } });
    assert.equal(page.statusCode, 404);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.payload, /<h1>Page not found<\/h1>/);
    assert.match(page.payload, /href="\/login"/);
    for (const url of ['/v1/nope', '/admin/api/v1/nope', '/web/api/nope']) {
      const api = await gateway.text.inject({ url, headers: { accept: 'text/html' } });
      assert.equal(api.statusCode, 404, url);
      assert.match(String(api.headers['content-type']), /^application\/json/, url);
    }
    const curl = await gateway.text.inject({ url: '/settings/profile', headers: { accept: '*/*' } });
    assert.match(String(curl.headers['content-type']), /^application\/json/);
  });

  test('no Host header: 400 on web pages (HTML), the web JSON API (JSON) and the API (JSON), never 500', async () => {
    for (const [path, type] of [['/login', 'text/html'], ['/keys', 'text/html'], ['/assets/app.css', 'text/html'], ['/web/api/models', 'application/json'], ['/v1/models', 'application/json']] as const) {
      const answer = await rawGet(port, path);
      assert.match(answer, /^HTTP\/1\.1 400 /, `${path}: ${answer.split('\r\n')[0]}`);
      assert.match(answer, new RegExp(`content-type: ${type.replace('/', '\\/')}`, 'i'), path);
      assert.match(answer, /Host header/, path);
    }
  });
});
