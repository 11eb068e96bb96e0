// Why a generation ended, between Gemini's finishReason and the canonical stop reason. Gemini has
// no reason of its own for a tool call (it says STOP), so a turn that holds calls stops for tool_use.
import type { StopReason } from '../../../core/protocol/messages-types.ts';

const FILTERED = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION', 'LANGUAGE']);

export function stopReasonFromGemini(finish: string | undefined, hasCalls: boolean): StopReason {
  if (finish === 'MAX_TOKENS') return 'max_tokens';
  if (finish !== undefined && FILTERED.has(finish)) return 'refusal';
  return hasCalls ? 'tool_use' : 'end_turn';
}

export function geminiFinishReason(stop: string | null | undefined): string {
  switch (stop) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'MAX_TOKENS';
    case 'refusal':
      return 'SAFETY';
    default:
      return 'STOP';
  }
}
