// Answers in each protocol's real shape for fake upstreams: JSON bodies and SSE frames for text,
// (parallel) tool calls and usage, so tests can script an upstream in a line.
const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

export interface ToolCallSpec {
  id: string;
  name: string;
  /** The JSON arguments, streamed in these pieces. */
  pieces: string[];
}

export interface UsageSpec {
  input: number;
  output: number;
  cacheRead?: number;
  cacheCreation?: number;
}

// ---- chat-completions ----

export function chatJson(model: string, text: string | null, usage: UsageSpec, options: { tools?: ToolCallSpec[]; finish?: string; reasoning?: string } = {}) {
  const message: Record<string, unknown> = { role: 'assistant', content: text, refusal: null };
  if (options.tools) message.tool_calls = options.tools.map((t) => ({ id: t.id, type: 'function', function: { name: t.name, arguments: t.pieces.join('') } }));
  if (options.reasoning) message.reasoning_content = options.reasoning;
  return {
    id: 'chatcmpl-fake1',
    object: 'chat.completion',
    created: 1700000000,
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: options.finish ?? (options.tools ? 'tool_calls' : 'stop') }],
    usage: chatUsage(usage),
  };
}

function chatUsage(u: UsageSpec) {
  const prompt = u.input + (u.cacheRead ?? 0);
  return { prompt_tokens: prompt, completion_tokens: u.output, total_tokens: prompt + u.output, prompt_tokens_details: { cached_tokens: u.cacheRead ?? 0, audio_tokens: 0 } };
}

export function chatFrames(model: string, pieces: string[], usage: UsageSpec, options: { tools?: ToolCallSpec[]; finish?: string } = {}): string[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    sse({ id: 'chatcmpl-fake1', object: 'chat.completion.chunk', created: 1700000000, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], usage: null });
  const frames = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const piece of pieces) frames.push(chunk({ content: piece }));
  (options.tools ?? []).forEach((tool, index) => {
    frames.push(chunk({ tool_calls: [{ index, id: tool.id, type: 'function', function: { name: tool.name, arguments: '' } }] }));
    for (const piece of tool.pieces) frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  frames.push(chunk({}, options.finish ?? (options.tools?.length ? 'tool_calls' : 'stop')));
  frames.push(sse({ id: 'chatcmpl-fake1', object: 'chat.completion.chunk', created: 1700000000, model, choices: [], usage: chatUsage(usage) }));
  frames.push(sse('[DONE]'));
  return frames;
}

// ---- messages ----

function messagesUsage(u: UsageSpec) {
  return { input_tokens: u.input, cache_creation_input_tokens: u.cacheCreation ?? 0, cache_read_input_tokens: u.cacheRead ?? 0, output_tokens: u.output };
}

export function messagesJson(model: string, text: string, usage: UsageSpec, options: { tools?: ToolCallSpec[]; stop?: string; thinking?: { text: string; signature: string } } = {}) {
  const content: unknown[] = [];
  if (options.thinking) content.push({ type: 'thinking', thinking: options.thinking.text, signature: options.thinking.signature });
  if (text) content.push({ type: 'text', text });
  for (const t of options.tools ?? []) content.push({ type: 'tool_use', id: t.id, name: t.name, input: JSON.parse(t.pieces.join('')) });
  return { id: 'msg_fake1', type: 'message', role: 'assistant', model, content, stop_reason: options.stop ?? (options.tools?.length ? 'tool_use' : 'end_turn'), stop_sequence: null, usage: messagesUsage(usage) };
}

export function messagesFrames(model: string, pieces: string[], usage: UsageSpec, options: { tools?: ToolCallSpec[]; stop?: string } = {}): string[] {
  const start = { id: 'msg_fake1', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...messagesUsage(usage), output_tokens: 1 } };
  const frames = [sse({ type: 'message_start', message: start }, 'message_start')];
  let index = 0;
  if (pieces.length) {
    frames.push(sse({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start'));
    frames.push(sse({ type: 'ping' }, 'ping'));
    for (const text of pieces) frames.push(sse({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } }, 'content_block_delta'));
    frames.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
    index += 1;
  }
  for (const tool of options.tools ?? []) {
    frames.push(sse({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: tool.id, name: tool.name, input: {} } }, 'content_block_start'));
    frames.push(sse({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } }, 'content_block_delta'));
    for (const partial of tool.pieces) frames.push(sse({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partial } }, 'content_block_delta'));
    frames.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
    index += 1;
  }
  const stop = options.stop ?? (options.tools?.length ? 'tool_use' : 'end_turn');
  frames.push(sse({ type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output } }, 'message_delta'));
  frames.push(sse({ type: 'message_stop' }, 'message_stop'));
  return frames;
}

// ---- errors ----

export const chatError = (message: string, type: string, code: string | null = null) => ({ error: { message, type, param: null, code } });
export const messagesError = (type: string, message: string) => ({ type: 'error', error: { type, message }, request_id: 'req_upstream1' });
