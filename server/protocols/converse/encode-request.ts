// canonical request -> Bedrock Converse request (a client of any protocol, a Bedrock model other
// than Claude). The system prompt becomes `system`, turns `messages` of Converse blocks, the limits
// and sampling `inferenceConfig`, tools `toolConfig`. Converse refuses a conversation with tool calls
// but no tool definitions, so a conversation that has them and offers no tools gets a definition per
// tool it used (any input), which lets the model read its history without calling anything new.
import type { Json } from '../../../core/protocol/chat-types.ts';
import type { CanonicalRequest } from '../canonical/conversation.ts';
import type { EncodeTarget } from '../codec.ts';
import { judgeExtras, openAiExtrasRules } from '../shared/foreign-fields.ts';
import { asRecord, isRecord, isUnset } from '../shared/json-values.ts';
import { checkRequestFields, type InertRule } from '../shared/request-fields.ts';
import { refuse } from '../shared/translation-error.ts';
import { CONVERSE_NAME, converseText } from './converse-blocks.ts';

const EXTRAS_RULES = { ...openAiExtrasRules(CONVERSE_NAME), unsigned_thinking: { inert: () => true, why: '' } };
const TRANSLATED = new Set(['model', 'max_tokens', 'messages', 'system', 'stream', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'tools', 'tool_choice', 'thinking', 'metadata', 'cache_control']);
const INERT: Record<string, InertRule> = {
  service_tier: { inert: (v) => v === 'auto', why: 'service tiers differ between the protocols; leave it out or use "auto".' },
  speed: { inert: (v) => v === 'standard', why: `${CONVERSE_NAME} has no speed setting.` },
  output_config: { inert: (v) => isRecord(v) && Object.values(v).every(isUnset), why: `${CONVERSE_NAME} has no effort or output format setting.` },
  container: { inert: () => false, why: 'containers exist only at the messages provider.' },
  mcp_servers: { inert: () => false, why: `MCP servers are connected by the messages provider; ${CONVERSE_NAME} has none.` },
  context_management: { inert: () => false, why: `context management runs at the messages provider; ${CONVERSE_NAME} has none.` },
  inference_geo: { inert: () => false, why: `${CONVERSE_NAME} has no inference region setting.` },
};

function toolConfig(request: CanonicalRequest, usedTools: Set<string>): Json | undefined {
  const tools = ((request.tools ?? []) as unknown[]).map((value, i) => {
    const tool = asRecord(value);
    if (tool.type !== undefined && tool.type !== 'custom') refuse(`tools[${i}].type`, `${CONVERSE_NAME} runs no server tools ("${String(tool.type)}"); only your own functions.`);
    return { toolSpec: { name: String(tool.name), ...(tool.description ? { description: String(tool.description) } : {}), inputSchema: { json: tool.input_schema ?? { type: 'object' } } } };
  });
  const choice = asRecord(request.tool_choice);
  if (choice.type === 'none') refuse('tool_choice', `${CONVERSE_NAME} cannot forbid tool calls; leave the tools out instead.`);
  if (tools.length === 0) {
    if (usedTools.size === 0) return undefined;
    return { tools: [...usedTools].map((name) => ({ toolSpec: { name, inputSchema: { json: { type: 'object' } } } })) };
  }
  const config: Json = { tools };
  if (choice.type === 'auto') config.toolChoice = { auto: {} };
  else if (choice.type === 'any') config.toolChoice = { any: {} };
  else if (choice.type === 'tool') config.toolChoice = { tool: { name: String(choice.name) } };
  if (choice.disable_parallel_tool_use === true) refuse('tool_choice.disable_parallel_tool_use', `${CONVERSE_NAME} cannot limit a turn to one tool call.`);
  return config;
}

export function encodeConverseRequest(request: CanonicalRequest, target: EncodeTarget): Json {
  const { extras, ...body } = request;
  judgeExtras(extras, EXTRAS_RULES);
  checkRequestFields(body as Json, TRANSLATED, INERT, CONVERSE_NAME);
  const thinking = asRecord(body.thinking);
  if (thinking.type !== undefined && thinking.type !== 'disabled') refuse('thinking', `the gateway sends reasoning settings only to Claude on Bedrock; this model is reached through ${CONVERSE_NAME}.`);
  const documents = { count: 0 };
  const usedTools = new Set<string>();
  const messages = ((body.messages ?? []) as unknown[]).map((value, i) => {
    const message = asRecord(value);
    if (Array.isArray(message.content)) for (const block of message.content) if (asRecord(block).type === 'tool_use') usedTools.add(String(asRecord(block).name));
    return { role: message.role === 'assistant' ? 'assistant' : 'user', content: converseText(message.content, `messages[${i}].content`, documents) };
  });
  const converse: Json = { messages };
  const system = converseText(body.system, 'system', documents);
  if (system.length > 0) converse.system = system;
  const inference: Json = { maxTokens: body.max_tokens ?? target.settings.defaultMaxTokens };
  if (body.temperature !== undefined) inference.temperature = body.temperature;
  if (body.top_p !== undefined) inference.topP = body.top_p;
  if (body.stop_sequences !== undefined) inference.stopSequences = body.stop_sequences;
  converse.inferenceConfig = inference;
  if (body.top_k !== undefined) converse.additionalModelRequestFields = { top_k: body.top_k };
  const tools = toolConfig(request, usedTools);
  if (tools) converse.toolConfig = tools;
  const user = asRecord(body.metadata).user_id;
  if (typeof user === 'string' && user) converse.requestMetadata = { user_id: user };
  return converse;
}
