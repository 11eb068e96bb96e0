// Extracts the text of a chat-completions or messages request: the last user turn (what the
// demo answers) and everything (what input tokens are counted over).

type Json = Record<string, unknown>;

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => {
      const p = part as Json;
      if (typeof p?.text === 'string') return p.text;
      if (p?.type === 'tool_result') return contentText(p.content);
      return '';
    })
    .filter(Boolean)
    .join('\n');
}

export interface PromptText {
  lastUser: string;
  all: string;
}

export function promptText(body: Json): PromptText {
  const parts: string[] = [];
  const system = body.system;
  if (system !== undefined) parts.push(contentText(system));
  let lastUser = '';
  for (const message of Array.isArray(body.messages) ? (body.messages as Json[]) : []) {
    const text = contentText(message?.content);
    parts.push(text);
    if (message?.role === 'user') lastUser = text;
  }
  return { lastUser, all: parts.filter(Boolean).join('\n') };
}
