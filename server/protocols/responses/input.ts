// Reads a Responses request's `instructions` and `input` (a string or a list of items) into a flat
// list of entries both target protocols are built from, checking every item and content part on
// the way so a refusal names the field as the client wrote it (`input[3].content[0].detail`).
import type { Json } from '../../../core/protocol/chat-types.ts';
import { asRecord, asString, isUnset } from '../shared/json-values.ts';
import { refuse } from '../shared/translation-error.ts';

export type UserPart =
  | { type: 'text'; text: string; breakpoint: boolean }
  | { type: 'image'; url: string; detail: 'auto' | 'low' | 'high'; field: string }
  | { type: 'file'; data: string; filename?: string; field: string };

export type Entry =
  | { kind: 'system'; texts: Array<{ text: string; breakpoint: boolean }>; field: string }
  | { kind: 'user'; parts: UserPart[]; field: string }
  | { kind: 'assistant'; parts: Array<{ kind: 'text' | 'refusal'; text: string }>; field: string }
  | { kind: 'call'; callId: string; name: string; namespace?: string; arguments: string; field: string }
  | { kind: 'output'; callId: string; output: string | UserPart[]; field: string }
  | { kind: 'reasoning'; text: string; encrypted?: string; field: string };

function checkKeys(value: Json, allowed: readonly string[], field: string, why: string): void {
  for (const [key, v] of Object.entries(value)) {
    if (!allowed.includes(key) && !isUnset(v)) refuse(`${field}.${key}`, why);
  }
}

function breakpoint(part: Json, field: string): boolean {
  if (isUnset(part.prompt_cache_breakpoint)) return false;
  if (asRecord(part.prompt_cache_breakpoint).mode !== 'explicit') refuse(`${field}.prompt_cache_breakpoint.mode`, 'only "explicit" breakpoints exist.');
  return true;
}

/** One input content part (text, image or file) of a user, system or developer message or a tool output. */
function inputPart(value: unknown, field: string): UserPart {
  const part = asRecord(value);
  switch (part.type) {
    case 'input_text':
      checkKeys(part, ['type', 'text', 'prompt_cache_breakpoint'], field, 'text parts have no such field in the other protocols.');
      return { type: 'text', text: String(part.text ?? ''), breakpoint: breakpoint(part, field) };
    case 'input_image': {
      checkKeys(part, ['type', 'image_url', 'file_id', 'detail', 'prompt_cache_breakpoint'], field, 'image parts have no such field in the other protocols.');
      if (!isUnset(part.file_id)) refuse(`${field}.file_id`, 'uploaded file ids belong to a Responses provider; send the image as image_url (an http(s) URL or a base64 data: URL).');
      const url = asString(part.image_url);
      if (!url) refuse(`${field}.image_url`, 'an image part needs an http(s) URL or a base64 data: URL.');
      const detail = isUnset(part.detail) ? 'auto' : part.detail;
      if (detail !== 'auto' && detail !== 'low' && detail !== 'high') refuse(`${field}.detail`, `"${String(detail)}" has no equivalent in the other protocols; use auto, low or high.`);
      return { type: 'image', url, detail, field };
    }
    case 'input_file': {
      checkKeys(part, ['type', 'file_data', 'file_id', 'file_url', 'filename', 'detail'], field, 'file parts have no such field in the other protocols.');
      if (!isUnset(part.file_id)) refuse(`${field}.file_id`, 'uploaded file ids belong to a Responses provider; send the bytes as file_data instead.');
      if (!isUnset(part.file_url)) refuse(`${field}.file_url`, 'the other protocols take files as inline data only; send file_data.');
      if (!isUnset(part.detail) && part.detail !== 'auto') refuse(`${field}.detail`, 'the other protocols have no file detail setting.');
      const data = asString(part.file_data);
      if (!data) refuse(`${field}.file_data`, 'a file part needs its bytes as a base64 data: URL.');
      return { type: 'file', data, filename: asString(part.filename), field };
    }
    default:
      refuse(`${field}.type`, `"${String(part.type)}" parts (audio and the like) have no equivalent in the other protocols.`);
  }
}

function inputParts(content: unknown, field: string): UserPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content, breakpoint: false }];
  if (!Array.isArray(content)) refuse(field, 'must be a string or a list of content parts.');
  return content.map((part, j) => inputPart(part, `${field}[${j}]`));
}

function systemTexts(content: unknown, field: string): Array<{ text: string; breakpoint: boolean }> {
  return inputParts(content, field).map((part, j) => {
    if (part.type !== 'text') refuse(`${field}[${j}].type`, 'system and developer messages take text only.');
    return { text: part.text, breakpoint: part.breakpoint };
  });
}

function assistantParts(content: unknown, field: string): Array<{ kind: 'text' | 'refusal'; text: string }> {
  if (typeof content === 'string') return [{ kind: 'text', text: content }];
  if (!Array.isArray(content)) refuse(field, 'must be a string or a list of content parts.');
  return content.map((value, j) => {
    const part = asRecord(value);
    const at = `${field}[${j}]`;
    if (part.type === 'refusal') return { kind: 'refusal' as const, text: String(part.refusal ?? '') };
    if (part.type !== 'output_text' && part.type !== 'input_text') refuse(`${at}.type`, `assistant "${String(part.type)}" parts have no equivalent in the other protocols.`);
    if (Array.isArray(part.annotations) && part.annotations.length > 0) refuse(`${at}.annotations`, 'citations come from hosted tools, which the other protocols do not have.');
    checkKeys(part, ['type', 'text', 'annotations', 'logprobs'], at, 'assistant text has no such field in the other protocols.');
    return { kind: 'text' as const, text: String(part.text ?? '') };
  });
}

// `id` and `status` identify items at a Responses provider; `phase` tunes how a Responses model
// reads its own earlier turns. Neither changes what the other protocols are asked, so they are
// accepted and not forwarded.
const MESSAGE_KEYS = ['type', 'role', 'content', 'id', 'status', 'phase'];

function messageEntry(item: Json, field: string): Entry {
  checkKeys(item, MESSAGE_KEYS, field, 'messages have no such field in the other protocols.');
  switch (item.role) {
    case 'system':
    case 'developer':
      return { kind: 'system', texts: systemTexts(item.content, `${field}.content`), field };
    case 'user':
      return { kind: 'user', parts: inputParts(item.content, `${field}.content`), field };
    case 'assistant':
      return { kind: 'assistant', parts: assistantParts(item.content, `${field}.content`), field };
    default:
      refuse(`${field}.role`, `"${String(item.role)}" is not a message role; use user, assistant, system or developer.`);
  }
}

function textOf(list: unknown, type: string, field: string): string {
  if (isUnset(list)) return '';
  if (!Array.isArray(list)) refuse(field, 'must be a list.');
  return list
    .map((entry, k) => {
      const e = asRecord(entry);
      if (e.type !== type) refuse(`${field}[${k}].type`, `must be "${type}".`);
      return String(e.text ?? '');
    })
    .join('\n\n');
}

function itemEntry(value: unknown, field: string): Entry {
  const item = asRecord(value);
  const type = isUnset(item.type) ? (isUnset(item.role) ? 'item_reference' : 'message') : item.type;
  switch (type) {
    case 'message':
      return messageEntry(item, field);
    case 'function_call': {
      checkKeys(item, ['type', 'call_id', 'name', 'arguments', 'id', 'status', 'namespace'], field, 'function calls have no such field in the other protocols.');
      const callId = asString(item.call_id);
      if (!callId) refuse(`${field}.call_id`, 'a function call needs the id its output refers to.');
      const name = asString(item.name);
      if (!name) refuse(`${field}.name`, 'a function call needs the function name.');
      return { kind: 'call', callId, name, namespace: asString(item.namespace), arguments: asString(item.arguments) ?? '', field };
    }
    case 'function_call_output': {
      checkKeys(item, ['type', 'call_id', 'output', 'id', 'status'], field, 'function outputs have no such field in the other protocols.');
      const callId = asString(item.call_id);
      if (!callId) refuse(`${field}.call_id`, 'a function output must name the call it answers.');
      const output = typeof item.output === 'string' ? item.output : inputParts(item.output, `${field}.output`);
      return { kind: 'output', callId, output, field };
    }
    case 'reasoning': {
      checkKeys(item, ['type', 'id', 'summary', 'content', 'encrypted_content', 'status'], field, 'reasoning items have no such field in the other protocols.');
      const summary = textOf(item.summary, 'summary_text', `${field}.summary`);
      const text = summary || textOf(item.content, 'reasoning_text', `${field}.content`);
      return { kind: 'reasoning', text, encrypted: asString(item.encrypted_content), field };
    }
    case 'item_reference':
      refuse(field, 'item references point at items stored at a Responses provider; send the items themselves.');
    default:
      refuse(`${field}.type`, `"${String(type)}" items come from tools that run at a Responses provider; the other protocols have no equivalent.`);
  }
}

/** `instructions` first (as a system entry), then the input items in order. */
export function readResponsesInput(body: Json): Entry[] {
  const entries: Entry[] = [];
  if (!isUnset(body.instructions)) {
    if (typeof body.instructions !== 'string') refuse('instructions', 'must be a string.');
    if (body.instructions !== '') entries.push({ kind: 'system', texts: [{ text: body.instructions, breakpoint: false }], field: 'instructions' });
  }
  const input = body.input;
  if (typeof input === 'string') entries.push({ kind: 'user', parts: [{ type: 'text', text: input, breakpoint: false }], field: 'input' });
  else if (Array.isArray(input)) input.forEach((item, i) => entries.push(itemEntry(item, `input[${i}]`)));
  else if (!isUnset(input)) refuse('input', 'must be a string or a list of items.');
  return entries;
}
