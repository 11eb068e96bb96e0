// Reads token counts out of upstream answers, JSON or streamed, in either protocol.
import type { ApiSurface } from '../../core/protocol/error-bodies.ts';

export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
}

type Json = Record<string, any>;

const n = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

function messagesInput(usage: Json): number {
  return n(usage.input_tokens) + n(usage.cache_creation_input_tokens) + n(usage.cache_read_input_tokens);
}

/** Usage of a complete JSON answer. */
export function usageFromJson(surface: ApiSurface, body: unknown): TokenCounts {
  const usage = (body as Json | undefined)?.usage as Json | undefined;
  if (!usage) return { inputTokens: 0, outputTokens: 0 };
  if (surface === 'messages') return { inputTokens: messagesInput(usage), outputTokens: n(usage.output_tokens) };
  return {
    inputTokens: n(usage.prompt_tokens) || n(usage.input_tokens),
    outputTokens: n(usage.completion_tokens) || n(usage.output_tokens),
  };
}

/** A usage object (not `"usage":null`, which chat streams send in every chunk). */
const HAS_USAGE_OBJECT = /"usage"\s*:\s*\{/;

/** Accumulates usage over the events of a stream. */
export class StreamUsage implements TokenCounts {
  inputTokens = 0;
  outputTokens = 0;

  constructor(private readonly surface: ApiSurface) {}

  observe(data: string): void {
    if (data === '[DONE]' || data === '') return;
    if (!HAS_USAGE_OBJECT.test(data)) return;
    let event: unknown;
    try {
      event = JSON.parse(data);
    } catch {
      return;
    }
    this.observeParsed(event);
  }

  /** The same for an event already parsed (translated streams hold objects, not text). */
  observeParsed(value: unknown): void {
    if (!value || typeof value !== 'object') return;
    const event = value as Json;
    if (this.surface === 'messages') {
      const start = event.message?.usage as Json | undefined;
      if (event.type === 'message_start' && start) {
        this.inputTokens = messagesInput(start);
        this.outputTokens = n(start.output_tokens);
      }
      if (event.type === 'message_delta' && event.usage) {
        const usage = event.usage as Json;
        if (usage.input_tokens !== undefined) this.inputTokens = messagesInput(usage);
        if (usage.output_tokens !== undefined) this.outputTokens = n(usage.output_tokens);
      }
      return;
    }
    if (event.usage) {
      this.inputTokens = n(event.usage.prompt_tokens);
      this.outputTokens = n(event.usage.completion_tokens);
    }
  }
}

/** True for the chat-completions chunk that carries only usage (empty choices). */
export function isUsageOnlyChunk(data: string): boolean {
  if (!HAS_USAGE_OBJECT.test(data)) return false;
  try {
    const event = JSON.parse(data) as Json;
    return Array.isArray(event.choices) && event.choices.length === 0 && !!event.usage;
  } catch {
    return false;
  }
}

/** isUsageOnlyChunk for an event already parsed. */
export function isUsageOnlyEvent(value: unknown): boolean {
  if (!value || typeof value !== 'object') return false;
  const event = value as Json;
  return Array.isArray(event.choices) && event.choices.length === 0 && !!event.usage;
}
