// Gemini generateContent request -> canonical request (a Gemini client, an upstream of another
// protocol). `systemInstruction` becomes the system prompt, `contents` the turns (role `model` is
// the assistant); parts become blocks: text, thoughts (thinking, with their signature), inline
// images and PDFs, function calls (tool_use, the signature kept in the id) and function responses
// (tool_result, matched to their call by id, else by name in order). The model is named by the URL.
import type { Json } from '../../../core/protocol/chat-types.ts';
import type { ContentBlock, MessageParam, MessagesTool, MessagesToolChoice, TextBlock } from '../../../core/protocol/messages-types.ts';
import type { CanonicalRequest } from '../canonical/conversation.ts';
import { asNumber, asRecord, asString, isRecord, isUnset, parseJsonText } from '../shared/json-values.ts';
import { checkRequestFields, type InertRule } from '../shared/request-fields.ts';
import { refuse } from '../shared/translation-error.ts';
import { callIdWithSignature } from './call-ids.ts';
import { unpackThinking } from './packed-thinking.ts';
import { jsonSchemaFromOpenApi } from './schema.ts';

type Block = ContentBlock | ({ type: string } & Json);

const READ = new Set(['contents', 'systemInstruction', 'system_instruction', 'generationConfig', 'generation_config', 'tools', 'toolConfig', 'tool_config', 'model', 'safetySettings', 'safety_settings']);

const INERT: Record<string, InertRule> = {
  cachedContent: { inert: () => false, why: 'cached contents are stored at a Gemini provider; send the contents themselves.' },
  labels: { inert: (v) => isRecord(v) && Object.keys(v).length === 0, why: 'billing labels exist only at a Google provider.' },
};

const CONFIG_READ = new Set(['maxOutputTokens', 'temperature', 'topP', 'topK', 'stopSequences', 'thinkingConfig', 'responseMimeType', 'responseSchema', 'responseJsonSchema', 'candidateCount', 'responseModalities']);

const CONFIG_INERT: Record<string, InertRule> = {
  seed: { inert: () => false, why: 'the upstream protocol has no sampling seed.' },
  presencePenalty: { inert: (v) => v === 0, why: 'the upstream protocol has no presence penalty.' },
  frequencyPenalty: { inert: (v) => v === 0, why: 'the upstream protocol has no frequency penalty.' },
  responseLogprobs: { inert: (v) => v === false, why: 'the upstream protocol returns no log probabilities.' },
  logprobs: { inert: () => false, why: 'the upstream protocol returns no log probabilities.' },
  mediaResolution: { inert: () => true, why: '' },
  speechConfig: { inert: () => false, why: 'the upstream answers in text only.' },
  imageConfig: { inert: () => false, why: 'the upstream answers in text only.' },
};

const DATA_IMAGE = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

function camel(body: Json, name: string, snake: string): unknown {
  return body[name] ?? body[snake];
}

function mediaBlock(mimeType: string, source: Json, field: string): Block {
  if (DATA_IMAGE.has(mimeType)) return { type: 'image', source };
  if (mimeType === 'application/pdf') return { type: 'document', source };
  refuse(`${field}.mimeType`, `"${mimeType}" cannot be sent to the upstream protocol; images (jpeg, png, gif, webp) and PDFs can.`);
}

/**
 * A function's response as a tool result. Gemini's convention, `{output: text}` or `{error: text}`
 * (what the Gemini CLI sends), becomes that text itself, which a model of another protocol reads
 * better than escaped JSON; the encoder wraps text back the same way, so nothing is lost (output
 * text that is itself a JSON object stays wrapped, or it would come back unwrapped). Anything else
 * goes as JSON.
 */
function resultContent(result: unknown): { content: string; is_error?: true } {
  if (isRecord(result) && Object.keys(result).length === 1) {
    if (typeof result.error === 'string') return { content: result.error, is_error: true };
    if (typeof result.output === 'string' && !isRecord(parseJsonText(result.output))) return { content: result.output };
  }
  const failed = isRecord(result) && 'error' in result && !('output' in result) && !('result' in result);
  return { content: typeof result === 'string' ? result : JSON.stringify(result ?? {}), ...(failed ? { is_error: true as const } : {}) };
}

/** Function calls of the conversation so far, by name, for responses that name no id. */
type Calls = Map<string, string[]>;

/** Thinking blocks a call's signature carried (packed-thinking.ts), placed before the call's run. */
const UNPACKED = new WeakSet<object>();

function partBlock(part: Json, role: 'user' | 'assistant', field: string, calls: Calls, counter: { n: number }): Block | Block[] | undefined {
  if (typeof part.text === 'string') {
    if (part.thought === true) return role === 'assistant' ? { type: 'thinking', thinking: part.text, signature: asString(part.thoughtSignature) ?? '' } : undefined;
    return part.text === '' ? undefined : ({ type: 'text', text: part.text } satisfies TextBlock);
  }
  const inline = asRecord(camel(part, 'inlineData', 'inline_data'));
  if (Object.keys(inline).length > 0) {
    const mimeType = String(camel(inline, 'mimeType', 'mime_type') ?? '');
    return mediaBlock(mimeType, { type: 'base64', media_type: mimeType, data: String(inline.data ?? '') }, `${field}.inlineData`);
  }
  const file = asRecord(camel(part, 'fileData', 'file_data'));
  if (Object.keys(file).length > 0) {
    const mimeType = String(camel(file, 'mimeType', 'mime_type') ?? '');
    const uri = String(camel(file, 'fileUri', 'file_uri') ?? '');
    if (!/^https?:\/\//.test(uri)) refuse(`${field}.fileData.fileUri`, 'files uploaded to a Gemini provider cannot be read by another one; send the file inline (inlineData) or as an https URL.');
    return mediaBlock(mimeType, { type: 'url', url: uri }, `${field}.fileData`);
  }
  const call = asRecord(camel(part, 'functionCall', 'function_call'));
  if (Object.keys(call).length > 0) {
    const name = asString(call.name);
    if (!name) refuse(`${field}.functionCall.name`, 'a function call needs a name.');
    const own = asString(call.id) ?? `call_${counter.n++}`;
    const signature = asString(camel(part, 'thoughtSignature', 'thought_signature'));
    const thinking = unpackThinking(signature);
    if (thinking) {
      calls.set(name, [...(calls.get(name) ?? []), own]);
      for (const block of thinking) UNPACKED.add(block);
      return [...(thinking as Block[]), { type: 'tool_use', id: own, name, input: isRecord(call.args) ? call.args : {} }];
    }
    const id = callIdWithSignature(own, signature);
    calls.set(name, [...(calls.get(name) ?? []), id]);
    return { type: 'tool_use', id, name, input: isRecord(call.args) ? call.args : {} };
  }
  const response = asRecord(camel(part, 'functionResponse', 'function_response'));
  if (Object.keys(response).length > 0) {
    const name = String(response.name ?? '');
    const pending = calls.get(name) ?? [];
    const byId = asString(response.id) ? pending.find((id) => id === response.id || id.startsWith(`${String(response.id)}__ts_`)) : undefined;
    const id = byId ?? pending[0] ?? asString(response.id);
    if (!id) refuse(`${field}.functionResponse`, `answers no earlier function call named "${name}"; send the model's functionCall before its response.`);
    calls.set(name, pending.filter((p) => p !== id));
    return { type: 'tool_result', tool_use_id: id, ...resultContent(response.response) };
  }
  if (Object.keys(part).every((key) => key === 'thoughtSignature' || key === 'thought_signature')) return undefined;
  refuse(`${field}`, `parts of this kind (${Object.keys(part).join(', ')}) run only at a Gemini provider; send text, inline data, function calls and responses.`);
}

/**
 * Blocks appended to a turn. A thought streamed in pieces comes back as consecutive thought parts
 * (possibly in consecutive contents), its signature on the last: one thinking block, as issued.
 */
function append(target: Block[], blocks: Block[]): Block[] {
  let at: number | undefined;
  for (const block of blocks) {
    if (UNPACKED.has(block)) {
      // The client kept the thought parts too (the genai SDK's chats do): they are the same blocks.
      const mine = block as Json;
      const same = (b: Block) => b.type === mine.type && (mine.type === 'thinking' ? (b as Json).signature === mine.signature : (b as Json).data === mine.data);
      const kept = target.findIndex(same);
      if (kept !== -1) {
        at = kept + 1;
        continue;
      }
      // Thinking opens the run of blocks that ends in its call: after the previous call, or first.
      at ??= target.map((b) => b.type).lastIndexOf('tool_use') + 1;
      target.splice(at++, 0, block);
      continue;
    }
    at = undefined;
    const last = target.at(-1);
    if (block.type === 'thinking' && last?.type === 'thinking' && last.signature === '') {
      target[target.length - 1] = { ...last, thinking: `${String(last.thinking)}${String(block.thinking)}`, signature: block.signature } as Block;
    } else target.push(block);
  }
  return target;
}

function turns(contents: unknown): MessageParam[] {
  if (!Array.isArray(contents) || contents.length === 0) refuse('contents', 'must be a non-empty list of contents.');
  const calls: Calls = new Map();
  const counter = { n: 0 };
  const out: MessageParam[] = [];
  contents.forEach((entry, i) => {
    const content = asRecord(entry);
    const role = content.role === 'model' ? 'assistant' : content.role === 'user' || isUnset(content.role) ? 'user' : refuse(`contents[${i}].role`, 'must be user or model.');
    if (!Array.isArray(content.parts)) refuse(`contents[${i}].parts`, 'must be a list of parts.');
    const blocks = content.parts.flatMap((p, j) => partBlock(asRecord(p), role, `contents[${i}].parts[${j}]`, calls, counter) ?? []);
    if (blocks.length === 0) return;
    const last = out.at(-1);
    if (last && last.role === role) last.content = append([...(last.content as Block[])], blocks) as MessageParam['content'];
    else out.push({ role, content: append([], blocks) as MessageParam['content'] });
  });
  return out;
}

function system(instruction: unknown): TextBlock[] | undefined {
  if (isUnset(instruction)) return undefined;
  if (typeof instruction === 'string') return [{ type: 'text', text: instruction }];
  const parts = asRecord(instruction).parts;
  if (!Array.isArray(parts)) refuse('systemInstruction.parts', 'must be a list of text parts.');
  return parts.map((p, i) => {
    const text = asString(asRecord(p).text);
    if (text === undefined) refuse(`systemInstruction.parts[${i}]`, 'system instructions take text parts only.');
    return { type: 'text', text };
  });
}

function tools(value: unknown): MessagesTool[] | undefined {
  if (isUnset(value)) return undefined;
  if (!Array.isArray(value)) refuse('tools', 'must be a list of tools.');
  const out: MessagesTool[] = [];
  value.forEach((entry, i) => {
    const tool = asRecord(entry);
    for (const key of Object.keys(tool)) {
      if (key !== 'functionDeclarations' && key !== 'function_declarations') refuse(`tools[${i}].${key}`, 'this tool runs only at a Gemini provider; declare functions instead.');
    }
    const declarations = camel(tool, 'functionDeclarations', 'function_declarations');
    if (!Array.isArray(declarations)) refuse(`tools[${i}].functionDeclarations`, 'must be a list of function declarations.');
    declarations.forEach((d, j) => {
      const fn = asRecord(d);
      const name = asString(fn.name);
      if (!name) refuse(`tools[${i}].functionDeclarations[${j}].name`, 'a function needs a name.');
      const json = camel(fn, 'parametersJsonSchema', 'parameters_json_schema');
      const schema = isRecord(json) ? json : isRecord(fn.parameters) ? (jsonSchemaFromOpenApi(fn.parameters) as Json) : { type: 'object', properties: {} };
      const declared: MessagesTool = { name, input_schema: schema };
      if (typeof fn.description === 'string') declared.description = fn.description;
      out.push(declared);
    });
  });
  return out;
}

function toolChoice(config: unknown): MessagesToolChoice | undefined {
  const calling = asRecord(camel(asRecord(config), 'functionCallingConfig', 'function_calling_config'));
  const mode = asString(calling.mode);
  const allowed = camel(calling, 'allowedFunctionNames', 'allowed_function_names');
  switch (mode) {
    case undefined:
    case 'MODE_UNSPECIFIED':
    case 'AUTO':
    case 'VALIDATED':
      return mode === undefined ? undefined : { type: 'auto' };
    case 'NONE':
      return { type: 'none' };
    case 'ANY':
      return Array.isArray(allowed) && allowed.length === 1 ? { type: 'tool', name: String(allowed[0]) } : { type: 'any' };
    default:
      refuse('toolConfig.functionCallingConfig.mode', `"${mode}" is not a mode; use AUTO, ANY or NONE.`);
  }
}

/** As checkRequestFields, with the refused field named by its full path (`generationConfig.seed`). */
function checkConfigFields(config: Json): void {
  for (const [key, value] of Object.entries(config)) {
    if (CONFIG_READ.has(key) || isUnset(value)) continue;
    const rule = CONFIG_INERT[key];
    if (!rule) refuse(`generationConfig.${key}`, 'the upstream protocol has no such setting, and the gateway does not drop fields silently.');
    if (!rule.inert(value)) refuse(`generationConfig.${key}`, rule.why);
  }
}

function generation(config: Json, out: CanonicalRequest): void {
  checkConfigFields(config);
  const max = asNumber(config.maxOutputTokens);
  if (max !== undefined) out.max_tokens = max;
  if (!isUnset(config.temperature)) out.temperature = config.temperature as number;
  if (!isUnset(config.topP)) out.top_p = config.topP as number;
  if (!isUnset(config.topK)) out.top_k = config.topK as number;
  if (Array.isArray(config.stopSequences) && config.stopSequences.length > 0) out.stop_sequences = config.stopSequences.map(String);
  if (!isUnset(config.candidateCount) && config.candidateCount !== 1) refuse('generationConfig.candidateCount', 'the upstream protocol returns one candidate; set it to 1.');
  const modalities = config.responseModalities;
  if (Array.isArray(modalities) && modalities.some((m) => String(m).toUpperCase() !== 'TEXT')) refuse('generationConfig.responseModalities', 'the upstream answers in text only.');
  const thinking = asRecord(config.thinkingConfig);
  const budget = asNumber(thinking.thinkingBudget);
  const level = asString(thinking.thinkingLevel);
  if (budget === 0) out.thinking = { type: 'disabled' };
  else if (budget !== undefined && budget > 0) out.thinking = { type: 'enabled', budget_tokens: budget };
  else if (budget === -1 || thinking.includeThoughts === true) out.thinking = { type: 'adaptive' };
  const effort = level ? level.toLowerCase() : undefined;
  // responseJsonSchema is JSON Schema already (lowering it would rewrite a `type` inside a default or a const).
  const schema = isRecord(config.responseJsonSchema) ? config.responseJsonSchema : isRecord(config.responseSchema) ? (jsonSchemaFromOpenApi(config.responseSchema) as Json) : undefined;
  if (config.responseMimeType === 'application/json' && !schema) refuse('generationConfig.responseMimeType', 'the upstream protocol has no free JSON mode; give a responseJsonSchema.');
  if (effort || schema) out.output_config = { ...(effort ? { effort } : {}), ...(schema ? { format: { type: 'json_schema', schema } } : {}) };
}

export function decodeGeminiRequest(body: Json): CanonicalRequest {
  checkRequestFields(body, READ, INERT, 'the upstream protocol');
  const out: CanonicalRequest = { messages: turns(body.contents) };
  const instruction = system(camel(body, 'systemInstruction', 'system_instruction'));
  if (instruction?.length) out.system = instruction;
  generation(asRecord(camel(body, 'generationConfig', 'generation_config')), out);
  const declared = tools(body.tools);
  if (declared?.length) out.tools = declared;
  const config = camel(body, 'toolConfig', 'tool_config');
  const choice = toolChoice(config);
  if (choice && (choice.type === 'none' || out.tools)) out.tool_choice = choice;
  // ANY among several allowed functions: the canonical choice is "any tool", so the tools offered
  // are narrowed to the allowed ones (the model may call no other in this turn either way).
  const allowed = camel(asRecord(camel(asRecord(config), 'functionCallingConfig', 'function_calling_config')), 'allowedFunctionNames', 'allowed_function_names');
  if (choice?.type === 'any' && declared && Array.isArray(allowed) && allowed.length > 1) {
    const names = new Set(allowed.map(String));
    const missing = [...names].find((name) => !declared.some((t) => t.name === name));
    if (missing !== undefined) refuse('toolConfig.functionCallingConfig.allowedFunctionNames', `"${missing}" is not a declared function.`);
    out.tools = declared.filter((t) => names.has(t.name));
  }
  return out;
}
