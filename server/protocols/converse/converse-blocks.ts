// Canonical content blocks -> Bedrock Converse content blocks. Converse carries text, images and PDFs
// as bytes, tool calls and results, reasoning with its signature, and cache points after a block
// marked for caching; anything else is refused by name.
import type { Json } from '../../../core/protocol/chat-types.ts';
import { asRecord } from '../shared/json-values.ts';
import { refuse } from '../shared/translation-error.ts';

export const CONVERSE_NAME = 'Bedrock Converse';

const IMAGE_FORMATS = new Set(['png', 'jpeg', 'gif', 'webp']);
const CACHE_POINT = { cachePoint: { type: 'default' } };

function bytesSource(block: Json, field: string): string {
  const source = asRecord(block.source);
  if (source.type !== 'base64') refuse(`${field}.source.type`, `${CONVERSE_NAME} takes images and documents as bytes; send base64, not "${String(source.type)}".`);
  return String(source.data ?? '');
}

function image(block: Json, field: string): Json {
  const format = String(asRecord(block.source).media_type ?? '').replace(/^image\//, '');
  const bytes = bytesSource(block, field);
  if (!IMAGE_FORMATS.has(format)) refuse(`${field}.source.media_type`, `${CONVERSE_NAME} takes png, jpeg, gif or webp images.`);
  return { image: { format, source: { bytes } } };
}

function toolResultContent(content: unknown, field: string): Json[] {
  if (typeof content === 'string') return [{ text: content }];
  if (!Array.isArray(content)) return [];
  return content.map((item, k) => {
    const block = asRecord(item);
    if (block.type === 'text') return { text: String(block.text ?? '') };
    if (block.type === 'image') return image(block, `${field}[${k}]`);
    refuse(`${field}[${k}].type`, `${CONVERSE_NAME} tool results carry text and images, not "${String(block.type)}".`);
  });
}

/** One canonical block as Converse blocks (a cache marker adds a cache point after it). */
export function converseBlocks(value: unknown, field: string, documents: { count: number }): Json[] {
  const block = asRecord(value);
  let converted: Json;
  switch (block.type) {
    case 'text':
      converted = { text: String(block.text ?? '') };
      break;
    case 'image':
      converted = image(block, field);
      break;
    case 'document': {
      if (asRecord(block.source).media_type !== 'application/pdf') refuse(`${field}.source`, `${CONVERSE_NAME} documents are taken here as base64 PDFs only.`);
      documents.count += 1;
      converted = { document: { format: 'pdf', name: `document-${documents.count}`, source: { bytes: bytesSource(block, field) } } };
      break;
    }
    case 'tool_use':
      converted = { toolUse: { toolUseId: String(block.id ?? ''), name: String(block.name ?? ''), input: block.input ?? {} } };
      break;
    case 'tool_result':
      converted = { toolResult: { toolUseId: String(block.tool_use_id ?? ''), content: toolResultContent(block.content, `${field}.content`), status: block.is_error === true ? 'error' : 'success' } };
      break;
    case 'thinking':
      converted = { reasoningContent: { reasoningText: { text: String(block.thinking ?? ''), ...(block.signature ? { signature: String(block.signature) } : {}) } } };
      break;
    case 'redacted_thinking':
      converted = { reasoningContent: { redactedContent: String(block.data ?? '') } };
      break;
    default:
      refuse(`${field}.type`, `${CONVERSE_NAME} has no "${String(block.type)}" blocks.`);
  }
  return block.cache_control ? [converted, CACHE_POINT] : [converted];
}

export function converseText(value: unknown, field: string, documents: { count: number }): Json[] {
  if (typeof value === 'string') return [{ text: value }];
  if (!Array.isArray(value)) return [];
  return value.flatMap((block, i) => converseBlocks(block, `${field}[${i}]`, documents));
}
