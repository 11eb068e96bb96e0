// Reads token counts out of upstream answers, JSON or streamed, in either protocol.
import type { ApiSurface } from '../../core/protocol/error-bodies.ts';
import type { UsageClasses } from '../protocols/canonical/usage.ts';
import { usageClassesOf } from './usage-classes-of.ts';

export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  /** Every token class apart (for cost), when the upstream reported its usage. */
  usageClasses?: UsageClasses;
}

type Json = Record<string, any>;

const textLength = (value: unknown): number => (typeof value === 'string' ? value.length : 0);
const n = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

function messagesInput(usage: Json): number {
  return n(usage.input_tokens) + n(usage.cache_creation_input_tokens) + n(usage.cache_read_input_tokens);
}

/** Gemini's usageMetadata: the prompt includes its cached part; thoughts are output beside the candidates. */
function geminiCounts(metadata: Json): TokenCounts {
  return {
    inputTokens: n(metadata.promptTokenCount) + n(metadata.toolUsePromptTokenCount),
    outputTokens: n(metadata.candidatesTokenCount) + n(metadata.thoughtsTokenCount),
  };
}

/** Usage of a complete JSON answer. */
export function usageFromJson(surface: ApiSurface, body: unknown): TokenCounts {
  if (surface === 'gemini') {
    const metadata = (body as Json | undefined)?.usageMetadata as Json | undefined;
    return metadata ? { ...geminiCounts(metadata), usageClasses: usageClassesOf(surface, metadata) } : { inputTokens: 0, outputTokens: 0 };
  }
  const usage = (body as Json | undefined)?.usage as Json | undefined;
  if (!usage) return { inputTokens: 0, outputTokens: 0 };
  const usageClasses = usageClassesOf(surface, usage);
  if (surface === 'messages') return { inputTokens: messagesInput(usage), outputTokens: n(usage.output_tokens), usageClasses };
  return {
    inputTokens: n(usage.prompt_tokens) || n(usage.input_tokens),
    outputTokens: n(usage.completion_tokens) || n(usage.output_tokens),
    usageClasses,
  };
}

/** A usage object (not `"usage":null`, which chat streams send in every chunk). */
export const HAS_USAGE_OBJECT = /"usage"\s*:\s*\{/;
const HAS_USAGE_METADATA = /"usageMetadata"\s*:\s*\{/;

/**
 * String values of the fields that carry generated text in the protocols' stream events (Responses:
 * `delta`). Written as runs of plain characters between escapes, so a long value is one run rather
 * than one regex step per character (which overflowed the regex stack on multi-megabyte deltas).
 */
const GENERATED_TEXT = /"(?:text|content|thinking|partial_json|arguments|reasoning_content|delta)":"([^"\\]*(?:\\.[^"\\]*)*)"/g;

/**
 * Accumulates usage over the events of a stream, writing it through to `target` as it arrives, so a
 * stream that ends early (client gone, upstream cut, shutdown) still has what was known. It also
 * counts the characters of generated text relayed, for when the upstream never reported its usage.
 */
export class StreamUsage implements TokenCounts {
  inputTokens = 0;
  outputTokens = 0;
  usageClasses: UsageClasses | undefined;
  /** A messages stream's usage so far: its start's, with what later deltas report laid over it. */
  private messagesUsage: Json | undefined;
  /** Characters of generated text seen so far (JSON-escaped length; an estimate's input). */
  generatedChars = 0;

  constructor(
    private readonly surface: ApiSurface,
    private readonly target?: TokenCounts & { generatedChars?: number },
  ) {}

  observe(data: string): void {
    if (data === '[DONE]' || data === '') return;
    this.countText(data);
    this.readUsage(data);
  }

  /** Reads the token counts of one event's data, when it carries a usage object. */
  readUsage(data: string): void {
    if (!(this.surface === 'gemini' ? HAS_USAGE_METADATA : HAS_USAGE_OBJECT).test(data)) return;
    let event: unknown;
    try {
      event = JSON.parse(data);
    } catch {
      return;
    }
    if (!event || typeof event !== 'object') return;
    this.observeUsage(event as Json);
    this.publish();
  }

  /** Counts the generated text in any stretch of complete events (one event's data, or many raw events). */
  countText(text: string): void {
    GENERATED_TEXT.lastIndex = 0;
    for (let match = GENERATED_TEXT.exec(text); match; match = GENERATED_TEXT.exec(text)) this.generatedChars += match[1]!.length;
    if (this.target) this.target.generatedChars = this.generatedChars;
  }

  /** Counts a piece of generated text given as its JSON string literal (what countText would find in its event). */
  countLiteral(literal: string): void {
    this.generatedChars += literal.length - 2;
    if (this.target) this.target.generatedChars = this.generatedChars;
  }

  private countParsed(event: Json): void {
    const delta = event.delta as Json | undefined;
    let chars = 0;
    if (delta) chars += textLength(delta.text) + textLength(delta.thinking) + textLength(delta.partial_json);
    if (Array.isArray(event.choices)) {
      for (const choice of event.choices as Json[]) {
        const d = choice?.delta as Json | undefined;
        if (!d) continue;
        chars += textLength(d.content) + textLength(d.reasoning_content);
        if (Array.isArray(d.tool_calls)) for (const call of d.tool_calls as Json[]) chars += textLength(call?.function?.arguments);
      }
    }
    if (Array.isArray(event.candidates)) {
      const parts = (event.candidates[0] as Json | undefined)?.content?.parts;
      if (Array.isArray(parts)) for (const part of parts as Json[]) chars += textLength(part?.text);
    }
    if (chars === 0) return;
    this.generatedChars += chars;
    if (this.target) this.target.generatedChars = this.generatedChars;
  }

  private publish(): void {
    if (!this.target) return;
    this.target.inputTokens = this.inputTokens;
    this.target.outputTokens = this.outputTokens;
    if (this.usageClasses) this.target.usageClasses = this.usageClasses;
  }

  /** The same for an event already parsed (translated streams hold objects, not text). */
  observeParsed(value: unknown): void {
    if (!value || typeof value !== 'object') return;
    const event = value as Json;
    this.countParsed(event);
    this.observeUsage(event);
    this.publish();
  }

  private observeUsage(event: Json): void {
    if (this.surface === 'gemini') {
      // Gemini repeats its usage in chunks; the last one counts.
      if (event.usageMetadata) {
        Object.assign(this, geminiCounts(event.usageMetadata as Json));
        this.usageClasses = usageClassesOf('gemini', event.usageMetadata);
      }
      return;
    }
    if (this.surface === 'messages') {
      // Only the start and the deltas report usage: the classes are worked out when one does.
      const start = event.message?.usage as Json | undefined;
      if (event.type === 'message_start' && start) {
        this.inputTokens = messagesInput(start);
        this.outputTokens = n(start.output_tokens);
        this.messagesUsage = { ...start };
        this.usageClasses = usageClassesOf('messages', this.messagesUsage);
      } else if (event.type === 'message_delta' && event.usage) {
        const usage = event.usage as Json;
        if (usage.input_tokens !== undefined) this.inputTokens = messagesInput(usage);
        if (usage.output_tokens !== undefined) this.outputTokens = n(usage.output_tokens);
        this.messagesUsage = { ...this.messagesUsage, ...Object.fromEntries(Object.entries(usage).filter(([, v]) => v !== null && v !== undefined)) };
        this.usageClasses = usageClassesOf('messages', this.messagesUsage);
      }
      return;
    }
    if (event.usage) {
      this.inputTokens = n(event.usage.prompt_tokens);
      this.outputTokens = n(event.usage.completion_tokens);
      this.usageClasses = usageClassesOf('openai', event.usage);
    } else if (event.response?.usage) {
      // Responses streams report usage in the response object of their terminal event.
      this.inputTokens = n(event.response.usage.input_tokens);
      this.outputTokens = n(event.response.usage.output_tokens);
      this.usageClasses = usageClassesOf('openai', event.response.usage);
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
