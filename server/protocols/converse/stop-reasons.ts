// Converse stop reasons -> the canonical (messages-protocol) ones.
const STOP: Record<string, string> = {
  end_turn: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  stop_sequence: 'stop_sequence',
  guardrail_intervened: 'refusal',
  content_filtered: 'refusal',
  model_context_window_exceeded: 'model_context_window_exceeded',
};

export function stopReasonFromConverse(reason: unknown): string {
  return STOP[String(reason)] ?? 'end_turn';
}
