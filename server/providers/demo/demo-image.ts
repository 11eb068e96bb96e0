// The demo image model: a deterministic picture from the prompt (gradient plus soft discs).
import { seededRandom } from './demo-text.ts';
import { encodePng } from './png-encoder.ts';

export const MIN_IMAGE_SIDE = 64;
export const MAX_IMAGE_SIDE = 2048;

export function renderDemoImage(prompt: string, width: number, height: number, index: number): Buffer {
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
  for (let y = 0; y < height; y += 1) {
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
