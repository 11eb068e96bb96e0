// The demo image model's answer to an images request. Rendering is CPU work done in this process,
// so it is bounded twice: a pixel budget per request (400 above it) and a limit on how many
// renders run at once (the rest wait their turn), while each render yields to the event loop.
import { openAiErrorBody } from '../../../core/protocol/error-bodies.ts';
import { MAX_IMAGE_SIDE, MIN_IMAGE_SIDE, renderDemoImage } from './demo-image.ts';
import { countTokens } from './demo-text.ts';

export const DEMO_IMAGE_MODEL = 'demo-image';
export const DEMO_MAX_IMAGES = 4;
/** Default pixels per request: four 1024x1024 images, or one 2048x2048. */
export const DEFAULT_IMAGE_PIXEL_BUDGET = 4 * 1024 * 1024;
export const DEFAULT_IMAGE_CONCURRENCY = 2;

export interface DemoImageLimits {
  pixelBudget: number;
  concurrency: number;
}

/** A counting semaphore: at most `limit` holders at once, the rest queued in order. */
class RenderSlots {
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.active += 1;
    try {
      return await work();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}

export interface DemoAnswer {
  status: number;
  body: unknown;
}

export class DemoImages {
  private readonly slots: RenderSlots;

  constructor(private readonly limits: DemoImageLimits = { pixelBudget: DEFAULT_IMAGE_PIXEL_BUDGET, concurrency: DEFAULT_IMAGE_CONCURRENCY }) {
    this.slots = new RenderSlots(Math.max(1, limits.concurrency));
  }

  async answer(body: Record<string, unknown>): Promise<DemoAnswer> {
    const refuse = (message: string, param: string): DemoAnswer => ({ status: 400, body: openAiErrorBody(400, message, { param }) });
    const n = (body.n as number | undefined) ?? 1;
    if (!Number.isInteger(n) || n < 1 || n > DEMO_MAX_IMAGES) return refuse(`${DEMO_IMAGE_MODEL} draws 1 to ${DEMO_MAX_IMAGES} images per request; set n accordingly.`, 'n');
    if (body.response_format === 'url') return refuse(`${DEMO_IMAGE_MODEL} returns images inline only; use response_format "b64_json".`, 'response_format');
    const size = typeof body.size === 'string' ? body.size : '1024x1024';
    const [width, height] = size === 'auto' ? [1024, 1024] : size.split('x').map(Number);
    const inRange = (side: number | undefined) => Number.isInteger(side) && side! >= MIN_IMAGE_SIDE && side! <= MAX_IMAGE_SIDE;
    if (!inRange(width) || !inRange(height)) return refuse(`Size "${size}" is outside ${MIN_IMAGE_SIDE}..${MAX_IMAGE_SIDE} pixels per side; use e.g. "512x512".`, 'size');
    const pixels = n * width! * height!;
    if (pixels > this.limits.pixelBudget) {
      return refuse(
        `${n} image(s) of ${size} are ${pixels.toLocaleString('en')} pixels, over this gateway's budget of ${this.limits.pixelBudget.toLocaleString('en')} pixels per request; ask for fewer or smaller images.`,
        'size',
      );
    }
    const prompt = String(body.prompt ?? '');
    const data = await this.slots.run(async () => {
      const images = [];
      for (let index = 0; index < n; index += 1) {
        images.push({ b64_json: (await renderDemoImage(prompt, width!, height!, index)).toString('base64'), revised_prompt: prompt });
      }
      return images;
    });
    const inputTokens = countTokens(prompt);
    return { status: 200, body: { created: Math.floor(Date.now() / 1000), data, usage: { input_tokens: inputTokens, output_tokens: n, total_tokens: inputTokens + n } } };
  }
}
