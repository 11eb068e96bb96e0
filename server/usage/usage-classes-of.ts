// Every token class apart, from the usage object each protocol reports (for cost): messages'
// cache reads and five-minute / one-hour cache writes (an aggregate write with no split counts as
// five-minute writes), chat's and Responses' cached and reasoning tokens, Gemini's cached content
// and thoughts. A class the upstream does not report is 0.
import type { ApiSurface } from '../../core/protocol/error-bodies.ts';
import { usageClasses, type UsageClasses } from '../protocols/canonical/usage.ts';
import { canonicalUsageFromGemini } from '../protocols/gemini/usage.ts';

type Json = Record<string, any>;

const n = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0);

export const NO_CLASSES: UsageClasses = { input: 0, output: 0, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, reasoning: 0 };

/** Chat completions (`prompt_tokens`) or Responses (`input_tokens`): cached tokens are part of the prompt, reasoning part of the output. */
function openAiClasses(usage: Json): UsageClasses {
  const chat = usage.prompt_tokens !== undefined || usage.completion_tokens !== undefined;
  const prompt = n(chat ? usage.prompt_tokens : usage.input_tokens);
  const output = n(chat ? usage.completion_tokens : usage.output_tokens);
  const cached = Math.min(prompt, n((chat ? usage.prompt_tokens_details : usage.input_tokens_details)?.cached_tokens));
  const reasoning = Math.min(output, n((chat ? usage.completion_tokens_details : usage.output_tokens_details)?.reasoning_tokens));
  return { input: prompt - cached, output, cacheRead: cached, cacheWrite5m: 0, cacheWrite1h: 0, reasoning };
}

/** The classes of a protocol's usage object (`usage`, or Gemini's `usageMetadata`). */
export function usageClassesOf(surface: ApiSurface, usage: unknown): UsageClasses {
  if (!usage || typeof usage !== 'object') return NO_CLASSES;
  if (surface === 'gemini') return usageClasses(canonicalUsageFromGemini(usage));
  if (surface === 'messages') {
    const classes = usageClasses(usage);
    const u = usage as Json;
    // Messages spells reasoning nowhere in its usage; a translated answer may carry it canonically.
    return { ...classes, reasoning: Math.min(classes.output, classes.reasoning || n(u.output_tokens_details?.reasoning_tokens)) };
  }
  return openAiClasses(usage as Json);
}

/** Total tokens of the classes (input side and output), as the meter and token budgets count them. */
export function classTotals(c: UsageClasses): { inputTokens: number; outputTokens: number } {
  return { inputTokens: c.input + c.cacheRead + c.cacheWrite5m + c.cacheWrite1h, outputTokens: c.output };
}
