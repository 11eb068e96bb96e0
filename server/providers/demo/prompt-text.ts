// Extracts the text of a chat-completions or messages request: the last text the user typed (what
// the demo answers) and everything (what input tokens are counted over).

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

/** What the person typed last: clients put context (reminders, attachments) in earlier parts of the turn. */
function lastTextPart(content: unknown): string {
  if (!Array.isArray(content)) return contentText(content);
  for (let i = content.length - 1; i >= 0; i -= 1) {
    const part = content[i] as Json;
    if (typeof part?.text === 'string' && part.text.trim() !== '') return part.text;
  }
  return contentText(content);
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
    if (message?.role === 'user') lastUser = lastTextPart(message.content);
  }
  return { lastUser, all: parts.filter(Boolean).join('\n') };
}
