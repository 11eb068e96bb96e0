// Reads the text the model produced out of one stream event, in either protocol.
import type { ApiSurface } from '../../../core/protocol/error-bodies.ts';

export type StreamPiece = { text: string } | { error: string } | undefined;

export function streamPiece(surface: ApiSurface, event: string | undefined, data: string): StreamPiece {
  if (data === '[DONE]' || data === '') return undefined;
  let parsed: Record<string, any>;
  try {
    parsed = JSON.parse(data);
  } catch {
    return undefined;
  }
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
