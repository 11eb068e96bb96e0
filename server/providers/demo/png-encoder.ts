// Minimal PNG writer for 8-bit RGB images (no dependencies): signature, IHDR, IDAT, IEND.
import { promisify } from 'node:util';
import { crc32 as zlibCrc32, deflate } from 'node:zlib';

const deflateAsync = promisify(deflate);

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlibCrc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * rgb holds width*height*3 bytes, row by row. Compression runs on libuv's thread pool, so a large
 * image does not hold up the event loop while it is encoded.
 */
export async function encodePng(width: number, height: number, rgb: Uint8Array): Promise<Buffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y += 1) {
    raw[y * (stride + 1)] = 0; // filter: none
    raw.set(rgb.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', await deflateAsync(raw, { level: 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
