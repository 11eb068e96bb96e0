// Why a generation ended, in each protocol's words.
import type { ChatFinishReason } from '../../../core/protocol/chat-types.ts';
import type { StopReason } from '../../../core/protocol/messages-types.ts';

export function finishReasonFor(stop: StopReason | string | null | undefined): ChatFinishReason | null {
  switch (stop) {
    case undefined:
    case null:
      return null;
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      // end_turn, stop_sequence, pause_turn: the model stopped on its own or at a stop string.
      return 'stop';
  }
}

/**
 * `matched` is the stop string some chat-completions servers report beside finish_reason
 * (`stop_reason` on the choice); with it a stop at a stop sequence keeps its name.
 */
export function stopReasonFor(finish: string | null | undefined, matched?: unknown): { stop_reason: StopReason; stop_sequence: string | null } {
  switch (finish) {
    case 'length':
      return { stop_reason: 'max_tokens', stop_sequence: null };
    case 'tool_calls':
    case 'function_call':
      return { stop_reason: 'tool_use', stop_sequence: null };
    case 'content_filter':
      return { stop_reason: 'refusal', stop_sequence: null };
    default:
      if (typeof matched === 'string' && matched !== '') return { stop_reason: 'stop_sequence', stop_sequence: matched };
      return { stop_reason: 'end_turn', stop_sequence: null };
  }
}
