// Reads the text the model produced out of one stream event, in either protocol.
import type { ApiSurface } from '../../../core/protocol/error-bodies.ts';

export type StreamPiece = { text: string } | { error: string } | undefined;

export function streamPiece(surface: ApiSurface, event: string | undefined, data: string): StreamPiece {
  if (data === '[DONE]' || data === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return undefined;
  }
  return pieceOf(surface, event, parsed);
}

/** The same for an event already parsed, or made by a translation. */
export function pieceOf(surface: ApiSurface, event: string | undefined, data: unknown): StreamPiece {
  if (data === null || typeof data !== 'object') return undefined;
  const parsed = data as Record<string, any>;
  if (event === 'error' || parsed.type === 'error' || (surface === 'openai' && parsed.error)) {
    return { error: String(parsed.error?.message ?? 'the model failed during the answer') };
  }
  if (surface === 'openai') {
    const text = parsed.choices?.[0]?.delta?.content;
    return typeof text === 'string' && text ? { text } : undefined;
  }
  if (parsed.type === 'content_block_delta' && parsed.delta?.type === 'text_delta') return { text: String(parsed.delta.text) };
  return undefined;
}
