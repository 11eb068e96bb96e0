// The demo image model: a deterministic picture from the prompt (gradient plus soft discs). Pixels
// are computed in slices that give the event loop back between them, so one large image never
// stalls the other requests; encoding runs off the loop (png-encoder.ts).
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { seededRandom } from './demo-text.ts';
import { encodePng } from './png-encoder.ts';

export const MIN_IMAGE_SIDE = 64;
export const MAX_IMAGE_SIDE = 2048;

/** Pixels computed between two yields to the event loop (a few milliseconds of work). */
const PIXELS_PER_SLICE = 65_536;

export async function renderDemoImage(prompt: string, width: number, height: number, index: number): Promise<Buffer> {
  const random = seededRandom(`${prompt}\u0000${index}`);
  const colour = () => [40 + random() * 200, 40 + random() * 200, 40 + random() * 200];
  const [a, b] = [colour(), colour()];
  const discs = Array.from({ length: 3 + Math.floor(random() * 4) }, () => ({
    x: random() * width,
    y: random() * height,
    r: (0.08 + random() * 0.25) * Math.min(width, height),
    c: colour(),
  }));
  const rgb = new Uint8Array(width * height * 3);
  const rowsPerSlice = Math.max(1, Math.floor(PIXELS_PER_SLICE / width));
  for (let y = 0; y < height; y += 1) {
    if (y > 0 && y % rowsPerSlice === 0) await yieldToLoop();
    for (let x = 0; x < width; x += 1) {
      const t = (x / width + y / height) / 2;
      let r = a[0]! * (1 - t) + b[0]! * t;
      let g = a[1]! * (1 - t) + b[1]! * t;
      let bl = a[2]! * (1 - t) + b[2]! * t;
      for (const d of discs) {
        const dist = Math.hypot(x - d.x, y - d.y);
        if (dist < d.r) {
          const w = 0.6 * (1 - dist / d.r);
          r = r * (1 - w) + d.c[0]! * w;
          g = g * (1 - w) + d.c[1]! * w;
          bl = bl * (1 - w) + d.c[2]! * w;
        }
      }
      const o = (y * width + x) * 3;
      rgb[o] = r;
      rgb[o + 1] = g;
      rgb[o + 2] = bl;
    }
  }
  return encodePng(width, height, rgb);
}
