// Images and PDF documents: chat-completions carries them as URLs (a data: URL for inline
// bytes), the messages protocol as a source object (base64 or url).
import type { ChatContentPart, Json } from '../../../core/protocol/chat-types.ts';
import type { ContentBlock } from '../../../core/protocol/messages-types.ts';
import { asRecord, asString, isUnset } from '../shared/json-values.ts';
import { refuse } from '../shared/translation-error.ts';
import { imageDetailOf } from '../shared/origins.ts';

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const DATA_URL = /^data:([^;,]+)((?:;[^;,]+)*);base64,/;

function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = DATA_URL.exec(url);
  if (!match) return undefined;
  return { mediaType: match[1]!.toLowerCase(), data: url.slice(match[0].length) };
}

export function imageBlockFromChat(part: Json, field: string): ContentBlock {
  const image = asRecord(part.image_url);
  const url = asString(image.url);
  if (!url) refuse(`${field}.image_url.url`, 'an image part needs a URL or a data: URL.');
  if (!isUnset(image.detail) && image.detail !== 'auto') {
    refuse(`${field}.image_url.detail`, `the messages protocol has no image detail setting; leave detail out or set it to "auto".`);
  }
  return imageBlockFromUrl(url, `${field}.image_url.url`);
}

/** An image given by URL (http(s) or a base64 data: URL); `field` names the URL in a refusal. */
export function imageBlockFromUrl(url: string, field: string): ContentBlock {
  const inline = parseDataUrl(url);
  if (inline) {
    if (!IMAGE_TYPES.has(inline.mediaType)) refuse(field, `the messages protocol takes inline images of type ${[...IMAGE_TYPES].join(', ')}, not ${inline.mediaType}.`);
    return { type: 'image', source: { type: 'base64', media_type: inline.mediaType, data: inline.data } };
  }
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  refuse(field, 'only http(s) URLs and base64 data: URLs can be sent as images.');
}

export function documentBlockFromChat(part: Json, field: string): ContentBlock {
  const file = asRecord(part.file);
  if (!isUnset(file.file_id)) refuse(`${field}.file.file_id`, 'uploaded file ids belong to the chat-completions provider; send the bytes as file_data instead.');
  return documentBlockFromData(asString(file.file_data) ?? '', asString(file.filename), `${field}.file.file_data`);
}

/** A PDF given as a base64 data: URL; `field` names the data in a refusal. */
export function documentBlockFromData(data: string, filename: string | undefined, field: string): ContentBlock {
  const inline = parseDataUrl(data);
  if (!inline || inline.mediaType !== 'application/pdf') refuse(field, 'only PDF files as a base64 data: URL can be sent as documents.');
  const block: ContentBlock = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: inline.data } };
  if (filename) block.title = filename;
  return block;
}

export function chatPartFromImageBlock(block: Json, field: string): ChatContentPart {
  const source = asRecord(block.source);
  const detail = imageDetailOf(block);
  const url = source.type === 'base64' ? `data:${String(source.media_type)};base64,${String(source.data)}` : source.type === 'url' ? String(source.url) : undefined;
  if (url !== undefined) return { type: 'image_url', image_url: detail ? { url, detail: detail as 'low' | 'high' } : { url } };
  refuse(`${field}.source.type`, `image sources of type "${String(source.type)}" exist only at the messages provider; send base64 or url.`);
}

export function chatPartFromDocumentBlock(block: Json, field: string): ChatContentPart {
  const source = asRecord(block.source);
  if (source.type !== 'base64' || source.media_type !== 'application/pdf') {
    refuse(`${field}.source`, 'only base64 PDF documents can be sent to a chat-completions upstream (as a file part).');
  }
  if (!isUnset(block.context)) refuse(`${field}.context`, 'chat-completions file parts have no context field.');
  if (!isUnset(block.citations)) refuse(`${field}.citations`, 'chat-completions has no citations.');
  const filename = asString(block.title) ?? 'document.pdf';
  return { type: 'file', file: { filename, file_data: `data:application/pdf;base64,${String(source.data)}` } };
}
