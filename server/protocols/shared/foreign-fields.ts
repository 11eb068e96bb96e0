// Judges the `extras` of a canonical request at an encoder of another family: a field that carries
// its "not used" value (or that only tunes the other family's provider) passes, anything else is
// refused with the field as the client wrote it, so nothing is dropped silently.
import type { CanonicalExtras } from '../canonical/conversation.ts';
import type { InertRule } from './request-fields.ts';
import { refuse } from './translation-error.ts';

/** Rules for the OpenAI-family extras at an encoder of another family, keyed by chat-completions name. */
export function openAiExtrasRules(target: string): Record<string, InertRule> {
  return {
    // A cache key only routes requests at an OpenAI provider; other providers cache prefixes on their own.
    prompt_cache_key: { inert: () => true, why: '' },
    parallel_tool_calls: { inert: (v) => v === true, why: '' },
    unsigned_thinking: {
      inert: () => false,
      why: `${target} takes earlier thinking back only with its signature; send the reasoning item as the gateway returned it (with encrypted_content), or leave it out.`,
    },
    image_detail: { inert: () => false, why: `${target} has no image detail setting; leave detail out or set it to "auto".` },
    prompt_cache_retention: { inert: () => false, why: `${target} sets cache lifetimes with cache markers on content parts instead.` },
    service_tier: { inert: (v) => v === 'auto', why: 'service tiers differ between the protocols; leave it out or use "auto".' },
    verbosity: { inert: (v) => v === 'medium', why: `${target} has no verbosity setting.` },
    json_object: { inert: () => false, why: `${target} has no free JSON mode; use json_schema with a schema.` },
    // A schema's name and strictness matter only to an OpenAI provider.
    format_name: { inert: () => true, why: '' },
    format_strict: { inert: () => true, why: '' },
    format_description: { inert: () => false, why: `${target} takes the schema only; put the description into the schema.` },
    reasoning_effort: { inert: () => false, why: `has no ${target} equivalent; use none, low, medium, high, xhigh or max.` },
  };
}

export function judgeExtras(extras: CanonicalExtras | undefined, rules: Record<string, InertRule>): void {
  for (const [name, foreign] of Object.entries(extras?.openai ?? {})) {
    // Per-part extras are named `kind:field` (image_detail:input[0].content[1]).
    const rule = rules[name.split(':')[0]!];
    if (rule?.inert(foreign.value)) continue;
    const why = rule?.why ?? 'the upstream protocol has no such field, and the gateway does not drop fields silently.';
    refuse(foreign.field, name === 'reasoning_effort' ? `"${String(foreign.value)}" ${why}` : why);
  }
}
