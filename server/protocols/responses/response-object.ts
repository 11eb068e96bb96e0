// The parts of a Responses answer that do not depend on the upstream's protocol: the per-request
// context (the request fields a response object repeats, and the names of namespaced functions),
// output item ids, and the response object itself.
import type { Json } from '../../../core/protocol/chat-types.ts';
import type { ResponseObject, ResponseStatus, ResponsesOutputItem, ResponsesUsage } from '../../../core/protocol/responses-types.ts';
import { asRecord, isUnset } from '../shared/json-values.ts';

export interface NamespacedName {
  namespace: string;
  name: string;
}

/** What answer translations need to know about the request they answer. */
export interface ResponsesContext {
  /** Request fields a response object repeats (instructions, tools, tool_choice, sampling, …). */
  readonly echo: Readonly<Json>;
  /** Upstream function name -> namespace and name, for functions declared inside `namespace` tools. */
  readonly namespaced: ReadonlyMap<string, NamespacedName>;
}

const orNull = (value: unknown) => (isUnset(value) ? null : value);

/**
 * The request fields every response object carries, with the API's defaults where the client sent
 * none. `store` is false: an answer made through translation is kept nowhere, so it cannot be
 * retrieved or continued with previous_response_id.
 */
export function responseEcho(body: Json): Json {
  const reasoning = asRecord(body.reasoning);
  const echo: Json = {
    background: false,
    instructions: orNull(body.instructions),
    max_output_tokens: orNull(body.max_output_tokens),
    metadata: isUnset(body.metadata) ? {} : body.metadata,
    parallel_tool_calls: body.parallel_tool_calls !== false,
    previous_response_id: null,
    reasoning: { effort: orNull(reasoning.effort), summary: orNull(reasoning.summary ?? reasoning.generate_summary) },
    store: false,
    temperature: orNull(body.temperature),
    text: isUnset(body.text) ? { format: { type: 'text' } } : body.text,
    tool_choice: isUnset(body.tool_choice) ? 'auto' : body.tool_choice,
    tools: Array.isArray(body.tools) ? body.tools : [],
    top_p: orNull(body.top_p),
    truncation: isUnset(body.truncation) ? 'disabled' : body.truncation,
  };
  for (const key of ['user', 'safety_identifier', 'prompt_cache_key']) if (!isUnset(body[key])) echo[key] = body[key];
  return echo;
}

export const EMPTY_CONTEXT: ResponsesContext = { echo: responseEcho({}), namespaced: new Map() };

/** Response and item ids derived from the upstream's answer id, so the translation stays a pure function. */
export function responseId(upstreamId: string): string {
  return `resp_${upstreamId || 'gateway'}`;
}

export function itemId(kind: 'msg' | 'rs' | 'fc', upstreamId: string, index: number): string {
  return `${kind}_${upstreamId || 'gateway'}_${index}`;
}

export interface ResponseParts {
  id: string;
  model: string;
  createdAt: number;
  status: ResponseStatus;
  output: ResponsesOutputItem[];
  usage: ResponsesUsage | null;
  incomplete?: 'max_output_tokens' | 'content_filter';
  error?: { code: string; message: string };
}

export function responseObject(context: ResponsesContext, parts: ResponseParts): ResponseObject {
  return {
    id: parts.id,
    object: 'response',
    created_at: parts.createdAt,
    status: parts.status,
    error: parts.error ?? null,
    incomplete_details: parts.incomplete ? { reason: parts.incomplete } : null,
    model: parts.model,
    output: parts.output,
    usage: parts.usage,
    ...context.echo,
  };
}
