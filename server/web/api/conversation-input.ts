// The limits of what the chat's JSON calls accept, with the messages a person reads when a value is
// out of bounds (the schemas check only types, so the answer can say what to change).

export const MAX_TITLE_CHARS = 120;
export const MAX_SYSTEM_PROMPT_CHARS = 8000;
export const MAX_MESSAGE_CHARS = 32_000;
export const MAX_SEARCH_CHARS = 200;

export class InputError extends Error {
  readonly statusCode = 400;
}

const count = (n: number) => n.toLocaleString('en-US');

/** A title on one line, trimmed; refuses an empty or too long one. */
export function checkTitle(value: string): string {
  const title = value.replace(/\s+/g, ' ').trim();
  if (title === '') throw new InputError('A title cannot be empty.');
  if (title.length > MAX_TITLE_CHARS) throw new InputError(`A title has at most ${count(MAX_TITLE_CHARS)} characters; this one has ${count(title.length)}.`);
  return title;
}

/** Trimmed; '' means none. */
export function checkSystemPrompt(value: string): string {
  const prompt = value.trim();
  if (prompt.length > MAX_SYSTEM_PROMPT_CHARS) {
    throw new InputError(`A system prompt has at most ${count(MAX_SYSTEM_PROMPT_CHARS)} characters; this one has ${count(prompt.length)}.`);
  }
  return prompt;
}

export function checkMessage(value: string): string {
  if (value.trim() === '') throw new InputError('Write a message first.');
  if (value.length > MAX_MESSAGE_CHARS) throw new InputError(`A message has at most ${count(MAX_MESSAGE_CHARS)} characters; this one has ${count(value.length)}.`);
  return value;
}

export function checkSearch(value: string): string {
  if (value.length > MAX_SEARCH_CHARS) throw new InputError(`A search has at most ${count(MAX_SEARCH_CHARS)} characters.`);
  return value.trim();
}
