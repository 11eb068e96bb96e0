import { isObject, type JsonObject } from '../../util/json-value.ts';

export interface Message extends JsonObject {
  role: string;
  content: unknown;
}

export function messagesOf(body: JsonObject): Message[] {
  const messages = body.messages;
  if (!Array.isArray(messages)) return [];
  return messages.filter((m): m is Message => isObject(m) && typeof m.role === 'string');
}

/** Content blocks of a message; string content has none (callers that need its text use textOf). */
export function blocksOf(message: JsonObject): JsonObject[] {
  return Array.isArray(message.content) ? message.content.filter(isObject) : [];
}

export function systemBlocksOf(body: JsonObject): JsonObject[] {
  return Array.isArray(body.system) ? body.system.filter(isObject) : [];
}

export function isTextBlock(block: JsonObject): block is JsonObject & { text: string } {
  return block.type === 'text' && typeof block.text === 'string';
}

export function isThinkingBlock(block: JsonObject): boolean {
  return block.type === 'thinking' || block.type === 'redacted_thinking';
}

/** Every content block that may carry a cache marker, in the order the API builds the prefix. */
export function* cacheableBlocks(body: JsonObject): Generator<JsonObject> {
  if (Array.isArray(body.tools)) for (const tool of body.tools) if (isObject(tool)) yield tool;
  yield* systemBlocksOf(body);
  for (const message of messagesOf(body)) yield* blocksOf(message);
}
