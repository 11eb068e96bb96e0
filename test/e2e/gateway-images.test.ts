// The image API on its own listener, through the official `openai` client: the demo image model
// renders real PNGs of the asked size, and each listener points callers of the other API to it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { crc32, inflateSync } from 'node:zlib';
import OpenAI from 'openai';
import { GatewayProcess, isolateClientEnvironment } from '../helpers/gateway-process.ts';

interface DecodedPng {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  /** Filtered scanlines after inflating the IDAT data. */
  pixelBytes: number;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Decodes the PNG container far enough to prove it is one: signature, chunk CRCs, IHDR, IDAT, IEND. */
function decodePng(bytes: Buffer): DecodedPng {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  let offset = 8;
  const types: string[] = [];
  const idat: Buffer[] = [];
  let header: Omit<DecodedPng, 'pixelBytes'> | undefined;
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    const crc = bytes.readUInt32BE(offset + 8 + length);
    assert.equal(crc, crc32(bytes.subarray(offset + 4, offset + 8 + length)), `CRC of chunk ${type}`);
    types.push(type);
    if (type === 'IHDR') {
      header = { width: data.readUInt32BE(0), height: data.readUInt32BE(4), bitDepth: data[8]!, colorType: data[9]! };
    }
    if (type === 'IDAT') idat.push(Buffer.from(data));
    offset += 12 + length;
  }
  assert.equal(types[0], 'IHDR');
  assert.equal(types.at(-1), 'IEND');
  assert.ok(header);
  return { ...header, pixelBytes: inflateSync(Buffer.concat(idat)).length };
}

describe('image API (demo image model) through the openai client', () => {
  let gateway: GatewayProcess;
  let images: OpenAI;
  let key: string;
  let restoreEnv: () => void;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    gateway = await GatewayProcess.start();
    key = (await gateway.createKey('admin', 'images')).key;
    images = new OpenAI({ baseURL: `${gateway.imageUrl}/v1`, apiKey: key, maxRetries: 0 });
  });

  after(async () => {
    await gateway?.cleanup();
    restoreEnv?.();
  });

  test('images.generate returns b64 PNGs of the requested size, deterministic from the prompt', async () => {
    const result = await images.images.generate({ model: 'demo-image', prompt: 'a lighthouse at dusk', size: '320x200', n: 2, response_format: 'b64_json' });
    assert.equal(result.data?.length, 2);
    const decoded = result.data!.map((image) => Buffer.from(image.b64_json!, 'base64'));
    for (const png of decoded) {
      const info = decodePng(png);
      assert.equal(info.width, 320);
      assert.equal(info.height, 200);
      assert.equal(info.bitDepth, 8);
      const channels = CHANNELS[info.colorType];
      assert.ok(channels, `colour type ${info.colorType}`);
      assert.equal(info.pixelBytes, info.height * (1 + info.width * channels), 'the pixel data fills exactly the declared size');
    }
    const again = await images.images.generate({ model: 'demo-image', prompt: 'a lighthouse at dusk', size: '320x200', n: 1, response_format: 'b64_json' });
    assert.equal(again.data![0]!.b64_json, result.data![0]!.b64_json, 'same prompt and size, same first image');
    const other = await images.images.generate({ model: 'demo-image', prompt: 'a forest at noon', size: '320x200', response_format: 'b64_json' });
    assert.notEqual(other.data![0]!.b64_json, result.data![0]!.b64_json, 'another prompt draws another image');
  });

  test('without a model the first image model is used; a square size decodes as square', async () => {
    const result = await images.images.generate({ prompt: 'square', size: '256x256', response_format: 'b64_json' });
    const info = decodePng(Buffer.from(result.data![0]!.b64_json!, 'base64'));
    assert.equal(info.width, 256);
    assert.equal(info.height, 256);
  });

  test('models.list on the image API lists the image model only', async () => {
    const ids: string[] = [];
    for await (const model of images.models.list()) ids.push(model.id);
    assert.deepEqual(ids, ['demo-image']);
  });

  test('an out-of-range size is a 400 naming the field', async () => {
    await assert.rejects(images.images.generate({ model: 'demo-image', prompt: 'x', size: '9000x10', response_format: 'b64_json' }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.BadRequestError, String(error));
      assert.equal((error.error as { param?: string }).param, 'size');
      return true;
    });
  });

  test('image generation on the text listener answers 404 pointing to the image API', async () => {
    const wrong = new OpenAI({ baseURL: `${gateway.textUrl}/v1`, apiKey: key, maxRetries: 0 });
    await assert.rejects(wrong.images.generate({ model: 'demo-image', prompt: 'x', response_format: 'b64_json' }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.NotFoundError, String(error));
      assert.ok(error.message.includes(`${gateway.imageUrl}/v1/images/generations`), error.message);
      return true;
    });
  });

  test('chat completions on the image listener answer 404 pointing to the text API', async () => {
    await assert.rejects(images.chat.completions.create({ model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }] }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.NotFoundError, String(error));
      assert.ok(error.message.includes(`${gateway.textUrl}/v1`), error.message);
      return true;
    });
    const messages = await fetch(`${gateway.imageUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'demo-chat', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(messages.status, 404);
    const body = (await messages.json()) as { type: string; error: { type: string; message: string } };
    assert.equal(body.type, 'error', 'a messages path answers in the messages shape');
    assert.equal(body.error.type, 'not_found_error');
    assert.ok(body.error.message.includes(gateway.textUrl), body.error.message);
  });

  test('the text model is not served on the image API', async () => {
    await assert.rejects(images.images.generate({ model: 'demo-chat', prompt: 'x', response_format: 'b64_json' }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.NotFoundError, String(error));
      assert.equal((error.error as { param?: string }).param, 'model');
      return true;
    });
  });
});
