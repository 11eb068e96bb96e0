// Gemini's usageMetadata and the canonical usage classes. promptTokenCount includes the cached
// part (cachedContentTokenCount) and the tool-use prompt is counted apart; candidatesTokenCount
// leaves out the thoughts (thoughtsTokenCount), which are output all the same.
import type { Json } from '../../../core/protocol/chat-types.ts';
import { canonicalUsage, usageClasses } from '../canonical/usage.ts';
import { asNumber, asRecord } from '../shared/json-values.ts';

export function canonicalUsageFromGemini(metadata: unknown): Json {
  const m = asRecord(metadata);
  const prompt = (asNumber(m.promptTokenCount) ?? 0) + (asNumber(m.toolUsePromptTokenCount) ?? 0);
  const cached = asNumber(m.cachedContentTokenCount) ?? 0;
  const thoughts = asNumber(m.thoughtsTokenCount) ?? 0;
  return canonicalUsage({
    input: Math.max(0, prompt - cached),
    output: (asNumber(m.candidatesTokenCount) ?? 0) + thoughts,
    cacheRead: cached,
    cacheWrite5m: 0,
    cacheWrite1h: 0,
    reasoning: thoughts,
  });
}

export function geminiUsageFromCanonical(usage: unknown): Json {
  const c = usageClasses(usage);
  const prompt = c.input + c.cacheRead + c.cacheWrite5m + c.cacheWrite1h;
  const metadata: Json = { promptTokenCount: prompt, candidatesTokenCount: Math.max(0, c.output - c.reasoning), totalTokenCount: prompt + c.output };
  if (c.cacheRead > 0) metadata.cachedContentTokenCount = c.cacheRead;
  if (c.reasoning > 0) metadata.thoughtsTokenCount = c.reasoning;
  return metadata;
}
