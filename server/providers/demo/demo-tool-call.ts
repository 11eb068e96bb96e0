// The demo model's tool calls, alike in every protocol: it calls a function only when the request
// forces one (tool_choice required or named, messages any or tool, Responses required, Gemini ANY)
// and the conversation does not already end with a tool's result, which it answers in text instead.
// Arguments follow the function's schema: strings get the prompt, numbers its length, booleans true.
type Json = Record<string, unknown>;

export interface DemoToolCall {
  name: string;
  /** The arguments as JSON text. */
  arguments: string;
}

export function demoArguments(schema: unknown, prompt: string): string {
  const s = (schema ?? {}) as Json;
  const properties = (s.properties ?? {}) as Record<string, Json>;
  const names = Array.isArray(s.required) && s.required.length > 0 ? (s.required as string[]) : Object.keys(properties);
  const args: Json = {};
  for (const name of names) {
    const type = properties[name]?.type;
    args[name] = type === 'number' || type === 'integer' ? prompt.length : type === 'boolean' ? true : type === 'array' ? [prompt] : type === 'object' ? {} : prompt;
  }
  return JSON.stringify(args);
}

/** A messages request's forced call: tool_choice any (the first tool) or tool (the named one). */
export function forcedMessagesCall(body: Json, prompt: string): DemoToolCall | undefined {
  const tools = (Array.isArray(body.tools) ? body.tools : []) as Json[];
  const choice = (body.tool_choice ?? {}) as Json;
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  const last = messages.at(-1)?.content;
  if (Array.isArray(last) && last.some((b) => (b as Json)?.type === 'tool_result')) return undefined;
  const tool = choice.type === 'any' ? tools[0] : choice.type === 'tool' ? tools.find((t) => t.name === choice.name) : undefined;
  return tool ? { name: String(tool.name), arguments: demoArguments(tool.input_schema, prompt) } : undefined;
}

/** A chat-completions request's forced call: tool_choice required (the first function) or a named function. */
export function forcedChatCall(body: Json, prompt: string): DemoToolCall | undefined {
  const functions = (Array.isArray(body.tools) ? body.tools : []).map((t) => (t as Json)?.function as Json).filter(Boolean);
  const choice = body.tool_choice as Json | string | undefined;
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  if (messages.at(-1)?.role === 'tool') return undefined;
  const named = choice && typeof choice === 'object' && choice.type === 'function' ? String((choice.function as Json)?.name) : undefined;
  const fn = choice === 'required' ? functions[0] : named ? functions.find((f) => f.name === named) : undefined;
  return fn ? { name: String(fn.name), arguments: demoArguments(fn.parameters, prompt) } : undefined;
}

/** The arguments cut in a few pieces, as a stream delivers them. */
export function argumentPieces(args: string): string[] {
  const size = Math.max(1, Math.ceil(args.length / 3));
  const pieces: string[] = [];
  for (let i = 0; i < args.length; i += size) pieces.push(args.slice(i, i + size));
  return pieces.length ? pieces : [''];
}
