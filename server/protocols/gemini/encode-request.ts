// canonical request -> Gemini generateContent request (a client of another protocol, a Gemini
// upstream). The system prompt becomes `systemInstruction`, turns become `contents` (assistant is
// `model`); tool calls go back with the thought signature their id carries (or the documented
// placeholder for calls another model made), tool results as functionResponse parts named after
// their call. Earlier thinking is not sent back: a Gemini model needs only the signatures, and
// thinking from another model means nothing to it. Cache markers are hints Gemini applies on its own.
import type { Json } from '../../../core/protocol/chat-types.ts';
import type { CanonicalRequest } from '../canonical/conversation.ts';
import type { EncodeTarget } from '../codec.ts';
import { judgeExtras, openAiExtrasRules } from '../shared/foreign-fields.ts';
import { asRecord, asString, isRecord, isUnset, parseJsonText } from '../shared/json-values.ts';
import { checkRequestFields, type InertRule } from '../shared/request-fields.ts';
import { refuse } from '../shared/translation-error.ts';
import { SKIP_SIGNATURE, splitCallId } from './call-ids.ts';

const NAME = 'the Gemini API';
const EXTRAS_RULES = { ...openAiExtrasRules(NAME), unsigned_thinking: { inert: () => true, why: '' } };

const TRANSLATED = new Set(['model', 'max_tokens', 'messages', 'system', 'stream', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'tools', 'tool_choice', 'thinking', 'output_config', 'metadata', 'cache_control']);

const INERT: Record<string, InertRule> = {
  service_tier: { inert: (v) => v === 'auto', why: 'service tiers differ between the protocols; leave it out or use "auto".' },
  speed: { inert: (v) => v === 'standard', why: `${NAME} has no speed setting.` },
  container: { inert: () => false, why: 'containers exist only at the messages provider.' },
  mcp_servers: { inert: () => false, why: `MCP servers are connected by the messages provider; ${NAME} has none.` },
  context_management: {
    inert: (v) => isRecord(v) && Array.isArray(v.edits) && v.edits.every((e) => isRecord(e) && String(e.type).startsWith('clear_thinking') && e.keep === 'all'),
    why: 'context management edits other than keeping all thinking run at the messages provider.',
  },
  inference_geo: { inert: () => false, why: `${NAME} has no inference region setting.` },
};

const EFFORT_LEVEL: Record<string, string> = { low: 'low', medium: 'medium', high: 'high', xhigh: 'high', max: 'high' };

function mediaPart(source: Json, field: string): Json {
  if (source.type === 'base64') return { inlineData: { mimeType: String(source.media_type), data: String(source.data) } };
  if (source.type === 'url') return { fileData: { fileUri: String(source.url) } };
  refuse(`${field}.source.type`, `sources of type "${String(source.type)}" exist only at the messages provider; send base64 or url.`);
}

function toolResponse(block: Json, names: Map<string, string>, field: string): Json {
  const callId = String(block.tool_use_id ?? '');
  const name = names.get(callId);
  if (!name) refuse(`${field}.tool_use_id`, 'answers no earlier tool call of this conversation; Gemini names each function response after its call.');
  let text: string;
  if (typeof block.content === 'string') text = block.content;
  else if (Array.isArray(block.content)) {
    text = block.content
      .map((item, k) => {
        const b = asRecord(item);
        if (b.type !== 'text') refuse(`${field}.content[${k}].type`, `${NAME} function responses carry text (JSON) only, not "${String(b.type)}".`);
        return String(b.text ?? '');
      })
      .join('');
  } else text = '';
  const parsed = parseJsonText(text);
  const response = block.is_error === true ? { error: text } : isRecord(parsed) ? parsed : { output: text };
  const own = splitCallId(callId).id;
  return { functionResponse: { id: own, name, response } };
}

function parts(content: unknown, role: 'user' | 'assistant', names: Map<string, string>, field: string): Json[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  if (!Array.isArray(content)) refuse(field, 'must be a string or a list of blocks.');
  const out: Json[] = [];
  let signedCall = false;
  content.forEach((item, j) => {
    const block = asRecord(item);
    const at = `${field}[${j}]`;
    switch (block.type) {
      case 'text':
        if (block.text !== '') out.push({ text: String(block.text ?? '') });
        break;
      case 'image':
      case 'document':
        out.push(mediaPart(asRecord(block.source), at));
        break;
      case 'thinking':
      case 'redacted_thinking':
        break;
      case 'tool_use': {
        if (role !== 'assistant') refuse(`${at}.type`, 'tool calls belong to assistant turns.');
        const id = String(block.id ?? '');
        const name = String(block.name ?? '');
        names.set(id, name);
        const { id: own, signature } = splitCallId(id);
        const part: Json = { functionCall: { id: own, name, args: isRecord(block.input) ? block.input : {} } };
        // Parallel calls: the first carries the signature; a call from another model gets the placeholder.
        if (signature) part.thoughtSignature = signature;
        else if (!signedCall) part.thoughtSignature = SKIP_SIGNATURE;
        signedCall = true;
        out.push(part);
        break;
      }
      case 'tool_result':
        out.push(toolResponse(block, names, at));
        break;
      default:
        refuse(`${at}.type`, `"${String(block.type)}" blocks have no ${NAME} equivalent.`);
    }
  });
  return out;
}

function systemInstruction(system: unknown): Json | undefined {
  if (isUnset(system)) return undefined;
  if (typeof system === 'string') return system === '' ? undefined : { parts: [{ text: system }] };
  if (!Array.isArray(system)) refuse('system', 'must be a string or a list of text blocks.');
  const texts = system.map((b, i) => {
    const block = asRecord(b);
    if (block.type !== 'text') refuse(`system[${i}].type`, 'system instructions take text blocks only.');
    return { text: String(block.text ?? '') };
  });
  return texts.length ? { parts: texts } : undefined;
}

function functionCallingConfig(choice: unknown): Json | undefined {
  if (isUnset(choice)) return undefined;
  const c = asRecord(choice);
  switch (c.type) {
    case 'auto':
      return { mode: 'AUTO' };
    case 'any':
      return { mode: 'ANY' };
    case 'none':
      return { mode: 'NONE' };
    case 'tool':
      return { mode: 'ANY', allowedFunctionNames: [String(c.name ?? '')] };
    default:
      refuse('tool_choice.type', `"${String(c.type)}" has no ${NAME} equivalent.`);
  }
}

/** Gemini 3 and later take a thinking level; earlier models only a thinking budget (they refuse the level). */
const EFFORT_BUDGET: Record<string, number> = { low: 1024, medium: 8192, high: 24576 };
const BUDGET_ONLY_MODEL = /^(models\/)?gemini-(1|2)(\.|-)/;

function generationConfig(body: Json, upstreamModel: string): Json {
  const config: Json = {};
  if (!isUnset(body.max_tokens)) config.maxOutputTokens = body.max_tokens;
  if (!isUnset(body.temperature)) config.temperature = body.temperature;
  if (!isUnset(body.top_p)) config.topP = body.top_p;
  if (!isUnset(body.top_k)) config.topK = body.top_k;
  if (Array.isArray(body.stop_sequences) && body.stop_sequences.length > 0) config.stopSequences = body.stop_sequences;
  const thinking = asRecord(body.thinking);
  const effort = asString(asRecord(body.output_config).effort);
  if (thinking.type === 'disabled') config.thinkingConfig = { thinkingBudget: 0 };
  else if (thinking.type === 'enabled') config.thinkingConfig = { thinkingBudget: thinking.budget_tokens, includeThoughts: thinking.display !== 'omitted' };
  else if (thinking.type === 'adaptive') config.thinkingConfig = { includeThoughts: thinking.display !== 'omitted' };
  else if (!isUnset(body.thinking)) refuse('thinking.type', `"${String(thinking.type)}" has no ${NAME} equivalent.`);
  if (effort) {
    const level = EFFORT_LEVEL[effort];
    if (!level) refuse('output_config.effort', `"${effort}" has no ${NAME} equivalent.`);
    const setting = BUDGET_ONLY_MODEL.test(upstreamModel) ? { thinkingBudget: EFFORT_BUDGET[level] } : { thinkingLevel: level };
    config.thinkingConfig = { ...asRecord(config.thinkingConfig), ...setting };
  }
  const format = asRecord(asRecord(body.output_config).format);
  if (format.type === 'json_schema') Object.assign(config, { responseMimeType: 'application/json', responseJsonSchema: format.schema });
  return config;
}

export function encodeGeminiRequest(request: CanonicalRequest, target: EncodeTarget): Json {
  const { extras, ...body } = request as CanonicalRequest & Json;
  judgeExtras(extras, EXTRAS_RULES);
  checkRequestFields(body, TRANSLATED, INERT, NAME);
  const config = asRecord(body.output_config);
  for (const key of Object.keys(config)) if (key !== 'effort' && key !== 'format' && !isUnset(config[key])) refuse(`output_config.${key}`, `${NAME} has no such setting.`);
  const names = new Map<string, string>();
  if (!Array.isArray(body.messages)) refuse('messages', 'must be a list.');
  const contents = body.messages.map((m, i) => {
    const message = asRecord(m);
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    return { role: role === 'assistant' ? 'model' : 'user', parts: parts(message.content, role, names, `messages[${i}].content`) };
  }).filter((c) => c.parts.length > 0);
  const out: Json = { contents };
  const instruction = systemInstruction(body.system);
  if (instruction) out.systemInstruction = instruction;
  if (Array.isArray(body.tools) && body.tools.length > 0) {
    out.tools = [
      {
        functionDeclarations: body.tools.map((t, i) => {
          const tool = asRecord(t);
          if (!isUnset(tool.type) && tool.type !== 'custom') refuse(`tools[${i}].type`, `"${String(tool.type)}" is a tool that runs at the messages provider; ${NAME} has no such tool.`);
          const declared: Json = { name: String(tool.name ?? ''), parametersJsonSchema: tool.input_schema ?? { type: 'object', properties: {} } };
          if (typeof tool.description === 'string') declared.description = tool.description;
          return declared;
        }),
      },
    ];
  }
  const calling = functionCallingConfig(body.tool_choice);
  if (calling) out.toolConfig = { functionCallingConfig: calling };
  const generation = generationConfig(body, target.upstreamModel);
  if (Object.keys(generation).length > 0) out.generationConfig = generation;
  return out;
}
