// How many images an images request asked for, and at what size: what an image price is per.
import type { ApiRequest } from '../api-exchange.ts';

export function imagesAsked(request: Pick<ApiRequest, 'url' | 'body'>): { images?: number; imageSize?: string } {
  if (!request.url.startsWith('/v1/images/')) return {};
  const body = (request.body ?? {}) as { n?: unknown; size?: unknown };
  const images = typeof body.n === 'number' && body.n > 0 ? body.n : 1;
  return typeof body.size === 'string' && body.size !== 'auto' ? { images, imageSize: body.size } : { images };
}
