// The top-level fields of a Responses request that both translations judge alike: what is read,
// what is accepted only with its "not used" value, and what is refused with its name. Among them
// the documented choice for conversation state: this gateway keeps none for translated models, so
// previous_response_id (and stored conversations, prompts) are refused with what to do instead.
import type { Json } from '../../../core/protocol/chat-types.ts';
import { asRecord, asString, isRecord, isUnset } from '../shared/json-values.ts';
import { checkRequestFields, isEmptyRecord, type InertRule } from '../shared/request-fields.ts';
import { refuse } from '../shared/translation-error.ts';

/** Read by both translations. */
const READ = [
  'model', 'input', 'instructions', 'stream', 'stream_options', 'max_output_tokens', 'temperature', 'top_p', 'tools', 'tool_choice',
  'parallel_tool_calls', 'reasoning', 'text', 'user', 'safety_identifier', 'include',
  // Whether the answer may be stored: an answer made through translation never is (the response
  // object says store: false), which the client can see; nothing about the answer changes.
  'store',
  // Client telemetry ids the Codex CLI sends along; they do not change the answer.
  'client_metadata',
];

const STATE_ADVICE = 'send the whole conversation in `input` (with store: false), as the Codex CLI does.';

const INERT: Record<string, InertRule> = {
  previous_response_id: {
    inert: () => false,
    why: `this model is served through translation, and the gateway keeps no conversation state for translated models (only a Responses provider does); ${STATE_ADVICE}`,
  },
  conversation: { inert: () => false, why: `conversations are stored at a Responses provider; ${STATE_ADVICE}` },
  prompt: { inert: () => false, why: 'prompt templates are stored at a Responses provider; send the instructions and input themselves.' },
  background: { inert: (v) => v === false, why: 'background responses run at a Responses provider; send the request without background.' },
  truncation: { inert: (v) => v === 'disabled', why: 'only a Responses provider can drop earlier items to fit the context; shorten the input instead.' },
  top_logprobs: { inert: (v) => v === 0, why: 'log probabilities are not translated.' },
  context_management: { inert: (v) => Array.isArray(v) && v.length === 0, why: 'context compaction runs at a Responses provider.' },
  moderation: { inert: () => false, why: 'moderated responses run at a Responses provider.' },
  prompt_cache_options: { inert: (v) => isEmptyRecord(v), why: 'prompt cache options exist only at a Responses provider.' },
  metadata: { inert: isEmptyRecord, why: 'stored-response metadata exists only at a Responses provider; use user or safety_identifier for a caller id.' },
  max_tool_calls: { inert: () => false, why: 'a limit on hosted tool calls exists only at a Responses provider.' },
};

/** Checks every top-level field; `extra` are the fields only this target reads, with its own inert rules. */
export function checkResponsesFields(body: Json, target: string, extra: { read: string[]; inert?: Record<string, InertRule> }): void {
  checkRequestFields(body, new Set([...READ, ...extra.read]), { ...INERT, ...extra.inert }, target);
  if (!isUnset(body.include)) {
    if (!Array.isArray(body.include)) refuse('include', 'must be a list.');
    body.include.forEach((entry, i) => {
      // Reasoning comes back with what returns it to its upstream whether asked for or not.
      if (entry !== 'reasoning.encrypted_content') refuse(`include[${i}]`, `"${String(entry)}" is not available through translation; only reasoning.encrypted_content is.`);
    });
  }
  const streamOptions = asRecord(body.stream_options);
  for (const key of Object.keys(streamOptions)) {
    // Obfuscation pads deltas against side channels at a Responses provider; translated events carry no padding to turn off.
    if (key !== 'include_obfuscation' && !isUnset(streamOptions[key])) refuse(`stream_options.${key}`, `${target} has no such stream option.`);
  }
}

export type TextFormat = { type: 'json_schema'; name?: string; schema: Json; strict?: boolean; description?: string } | { type: 'json_object' } | undefined;

/** `text.format` (text, json_schema, json_object) and `text.verbosity`. */
export function readTextConfig(body: Json): { format: TextFormat; verbosity?: string } {
  if (isUnset(body.text)) return { format: undefined };
  if (!isRecord(body.text)) refuse('text', 'must be an object such as {"format": {"type": "text"}}.');
  const text = body.text;
  for (const key of Object.keys(text)) {
    if (key !== 'format' && key !== 'verbosity' && !isUnset(text[key])) refuse(`text.${key}`, 'the other protocols have no such text setting.');
  }
  const verbosity = asString(text.verbosity);
  if (isUnset(text.format)) return { format: undefined, verbosity };
  const format = asRecord(text.format);
  switch (format.type) {
    case 'text':
      return { format: undefined, verbosity };
    case 'json_object':
      return { format: { type: 'json_object' }, verbosity };
    case 'json_schema': {
      if (!isRecord(format.schema)) refuse('text.format.schema', 'a JSON schema is required.');
      const out: TextFormat = { type: 'json_schema', schema: format.schema };
      if (asString(format.name)) out.name = String(format.name);
      if (typeof format.strict === 'boolean') out.strict = format.strict;
      if (asString(format.description)) out.description = String(format.description);
      return { format: out, verbosity };
    }
    default:
      refuse('text.format.type', `"${String(format.type)}" is not a text format; use text, json_schema or json_object.`);
  }
}

/** The caller id: user and safety_identifier name the same thing to the other protocols. */
export function callerId(body: Json, target: string): string | undefined {
  if (!isUnset(body.user) && !isUnset(body.safety_identifier) && body.user !== body.safety_identifier) {
    refuse('user', `${target} has one caller id; user and safety_identifier differ.`);
  }
  return asString(body.safety_identifier) ?? asString(body.user);
}
