// Reads a Responses request the way the demo model needs it: the text of the last user message
// (images and files shown as [image] / [file], so a reply shows they arrived), all text (what
// input tokens are counted over), and whether the input ends with a function's output (the demo
// then answers that output instead of calling a function again).
type Json = Record<string, unknown>;

export interface ResponsesPrompt {
  lastUser: string;
  all: string;
  /** The output of the last item when it is a function_call_output. */
  toolOutput?: string;
}

function partText(part: unknown): string {
  if (typeof part === 'string') return part;
  const p = (part ?? {}) as Json;
  if (typeof p.text === 'string') return p.text;
  if (typeof p.refusal === 'string') return p.refusal;
  if (p.type === 'input_image') return '[image]';
  if (p.type === 'input_file') return '[file]';
  return '';
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map(partText).filter(Boolean).join(' ');
}

function itemText(item: Json): string {
  switch (item.type ?? 'message') {
    case 'message':
      return contentText(item.content);
    case 'function_call':
      return `${String(item.name ?? '')} ${String(item.arguments ?? '')}`;
    case 'function_call_output':
      return contentText(item.output);
    case 'reasoning':
      return Array.isArray(item.summary) ? item.summary.map(partText).join(' ') : '';
    default:
      return '';
  }
}

export function responsesPrompt(body: Json, history = ''): ResponsesPrompt {
  const parts: string[] = [history, typeof body.instructions === 'string' ? body.instructions : ''];
  const items = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : Array.isArray(body.input) ? (body.input as Json[]) : [];
  let lastUser = '';
  for (const item of items) {
    const text = itemText(item ?? {});
    parts.push(text);
    if ((item?.type ?? 'message') === 'message' && item?.role === 'user') lastUser = text;
  }
  const last = items.at(-1);
  const toolOutput = last?.type === 'function_call_output' ? contentText(last.output) : undefined;
  return { lastUser, all: parts.filter(Boolean).join('\n'), toolOutput };
}
