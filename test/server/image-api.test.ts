import assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { bearer, createTestGateway, type TestGateway } from '../helpers/test-app.ts';

let gw: TestGateway;
let key: string;
before(async () => {
  gw = await createTestGateway();
  ({ key } = await gw.userWithKey('painter'));
});
after(() => gw.close());

/** Reads width and height from the IHDR chunk and checks the image data inflates to the right size. */
function decodePng(bytes: Buffer): { width: number; height: number } {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  assert.equal(bytes.subarray(12, 16).toString('ascii'), 'IHDR');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const idat: Buffer[] = [];
  for (let offset = 8; offset < bytes.length; ) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.subarray(offset + 4, offset + 8).toString('ascii');
    if (type === 'IDAT') idat.push(bytes.subarray(offset + 8, offset + 8 + length));
    offset += 12 + length;
  }
  assert.equal(inflateSync(Buffer.concat(idat)).length, (width * 3 + 1) * height);
  return { width, height };
}

test('the demo image model draws PNGs of the requested size, deterministic per prompt', async () => {
  const payload = { model: 'demo-image', prompt: 'a lighthouse at dusk', n: 2, size: '320x200', response_format: 'b64_json' };
  const res = await gw.image.inject({ method: 'POST', url: '/v1/images/generations', headers: bearer(key), payload });
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.data.length, 2);
  const images = body.data.map((d: { b64_json: string }) => Buffer.from(d.b64_json, 'base64'));
  for (const png of images) assert.deepEqual(decodePng(png), { width: 320, height: 200 });
  assert.notDeepEqual(images[0], images[1], 'each image of a request differs');
  const again = await gw.image.inject({ method: 'POST', url: '/v1/images/generations', headers: bearer(key), payload });
  assert.equal(again.json().data[0].b64_json, body.data[0].b64_json);
});

test('the model defaults to the first image model and the size to 1024x1024', async () => {
  const res = await gw.image.inject({ method: 'POST', url: '/v1/images/generations', headers: bearer(key), payload: { prompt: 'default' } });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(decodePng(Buffer.from(res.json().data[0].b64_json, 'base64')), { width: 1024, height: 1024 });
});

test('bad sizes, counts and formats are refused with the field named', async () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ prompt: 'x', size: '10x10' }, 'size'],
    [{ prompt: 'x', size: 'huge' }, 'size'],
    [{ prompt: 'x', n: 9 }, 'n'],
    [{ prompt: 'x', n: 0 }, 'n'],
    [{ prompt: 'x', response_format: 'url' }, 'response_format'],
    [{ prompt: '' }, 'prompt'],
    [{ size: '256x256' }, 'prompt'],
  ];
  for (const [payload, field] of cases) {
    const res = await gw.image.inject({ method: 'POST', url: '/v1/images/generations', headers: bearer(key), payload });
    assert.equal(res.statusCode, 400, JSON.stringify(payload));
    assert.equal(res.json().error.param, field, JSON.stringify(payload));
  }
  const text = await gw.image.inject({ method: 'POST', url: '/v1/images/generations', headers: bearer(key), payload: { model: 'demo-chat', prompt: 'x' } });
  assert.equal(text.statusCode, 404, 'a text model is not an image model');
});
