// Token estimates for exchanges the upstream never reported usage for (a stream cut before its
// usage event, an upstream that sends none): about four characters a token, over the prompt's text
// and the generated text relayed. Bounded work whatever the body: it walks at most MAX_NODES values,
// with an explicit stack (no recursion on client-controlled depth).

const CHARS_PER_TOKEN = 4;
const MAX_NODES = 200_000;
/** Keys whose strings are not prompt text (ids, model names, end-user ids, inline file data, formats). */
const NOT_TEXT = new Set(['model', 'id', 'tool_use_id', 'tool_call_id', 'data', 'url', 'image_url', 'signature', 'media_type', 'type', 'role', 'user', 'encoding_format', 'input_type', 'taskType']);

export function tokensFromChars(chars: number): number {
  return chars > 0 ? Math.ceil(chars / CHARS_PER_TOKEN) : 0;
}

/** Characters of text in a request body (messages, system, tools, input), base64 and ids left out. */
export function promptChars(body: unknown): number {
  let chars = 0;
  let visited = 0;
  const stack: unknown[] = [body];
  while (stack.length > 0 && visited < MAX_NODES) {
    const value = stack.pop();
    visited += 1;
    if (typeof value === 'string') {
      if (!value.startsWith('data:')) chars += value.length;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) if (!NOT_TEXT.has(key)) stack.push(item);
    }
  }
  return chars;
}
