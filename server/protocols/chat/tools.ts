// Tool definitions and tool choice. Both protocols describe a tool by name, description and a
// JSON schema of its input; only the envelope differs. Tools that run at the provider (web
// search, code execution, custom grammars) have no counterpart and are refused.
import type { ChatFunctionTool, ChatToolChoice, Json } from '../../../core/protocol/chat-types.ts';
import type { MessagesTool, MessagesToolChoice } from '../../../core/protocol/messages-types.ts';
import { asRecord, asString, isUnset } from '../shared/json-values.ts';
import { refuse } from '../shared/translation-error.ts';

const EMPTY_SCHEMA = { type: 'object', properties: {} };

export function messagesToolsFromChat(tools: unknown): MessagesTool[] {
  if (!Array.isArray(tools)) refuse('tools', 'must be a list of function tools.');
  return tools.map((tool, i) => {
    const t = asRecord(tool);
    if (t.type !== 'function') refuse(`tools[${i}].type`, `tools of type "${String(t.type)}" run only at a chat-completions provider; use function tools.`);
    const fn = asRecord(t.function);
    const name = asString(fn.name);
    if (!name) refuse(`tools[${i}].function.name`, 'a function tool needs a name.');
    for (const key of Object.keys(fn)) {
      if (!['name', 'description', 'parameters', 'strict'].includes(key)) refuse(`tools[${i}].function.${key}`, 'the messages protocol has no such tool field.');
    }
    const out: MessagesTool = { name, input_schema: (fn.parameters as Json | undefined) ?? EMPTY_SCHEMA };
    if (typeof fn.description === 'string') out.description = fn.description;
    if (fn.strict === true) out.strict = true;
    return out;
  });
}

export function chatToolsFromMessages(tools: unknown): ChatFunctionTool[] {
  if (!Array.isArray(tools)) refuse('tools', 'must be a list of tools.');
  return tools.map((tool, i) => {
    const t = asRecord(tool);
    if (!isUnset(t.type) && t.type !== 'custom') {
      refuse(`tools[${i}].type`, `"${String(t.type)}" is a tool that runs at the messages provider; a chat-completions upstream has no such tool.`);
    }
    for (const key of Object.keys(t)) {
      // cache_control is a caching hint; chat-completions providers cache prefixes on their own.
      if (!['type', 'name', 'description', 'input_schema', 'strict', 'cache_control'].includes(key)) {
        refuse(`tools[${i}].${key}`, 'chat-completions function tools have no such field.');
      }
    }
    const name = asString(t.name);
    if (!name) refuse(`tools[${i}].name`, 'a tool needs a name.');
    const fn: ChatFunctionTool['function'] = { name, parameters: (t.input_schema as Json | undefined) ?? EMPTY_SCHEMA };
    if (typeof t.description === 'string') fn.description = t.description;
    if (t.strict === true) fn.strict = true;
    return { type: 'function', function: fn };
  });
}

export function messagesToolChoiceFromChat(choice: unknown, parallel: unknown): MessagesToolChoice | undefined {
  const disableParallel = parallel === false;
  let result: MessagesToolChoice | undefined;
  if (isUnset(choice)) result = disableParallel ? { type: 'auto' } : undefined;
  else if (choice === 'none') return { type: 'none' };
  else if (choice === 'auto') result = { type: 'auto' };
  else if (choice === 'required') result = { type: 'any' };
  else {
    const c = asRecord(choice);
    const name = asString(asRecord(c.function).name);
    if (c.type !== 'function' || !name) refuse('tool_choice', `"${String(c.type ?? choice)}" has no messages-protocol equivalent; use none, auto, required or a function name.`);
    result = { type: 'tool', name };
  }
  if (result && disableParallel) result.disable_parallel_tool_use = true;
  return result;
}

export function chatToolChoiceFromMessages(choice: unknown): { tool_choice?: ChatToolChoice; parallel_tool_calls?: boolean } {
  if (isUnset(choice)) return {};
  const c = asRecord(choice);
  const parallel = c.disable_parallel_tool_use === true ? { parallel_tool_calls: false } : {};
  switch (c.type) {
    case 'auto':
      return { tool_choice: 'auto', ...parallel };
    case 'any':
      return { tool_choice: 'required', ...parallel };
    case 'none':
      return { tool_choice: 'none' };
    case 'tool': {
      const name = asString(c.name);
      if (!name) refuse('tool_choice.name', 'names the tool to use.');
      return { tool_choice: { type: 'function', function: { name } }, ...parallel };
    }
    default:
      refuse('tool_choice.type', `"${String(c.type)}" is not a tool choice chat-completions knows.`);
  }
}
