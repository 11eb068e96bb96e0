// Responses tools and tool_choice in chat-completions form (the messages form is made from it by the
// chat -> messages tool translation). Function tools map one to one. A `namespace` tool groups
// functions; the other protocols have no groups, so each function becomes `<namespace>__<name>`
// and answers name the namespace again (the context keeps the mapping). Tools that run at a
// Responses provider (web search, file search, code interpreter, MCP, …) and free-form custom
// tools have no counterpart and are refused.
import type { ChatFunctionTool, ChatToolChoice, Json } from '../../../core/protocol/chat-types.ts';
import { asRecord, asString, isUnset } from '../shared/json-values.ts';
import type { NamespacedName } from './response-object.ts';
import { refuse } from '../shared/translation-error.ts';

const EMPTY_SCHEMA = { type: 'object', properties: {} };
const SEPARATOR = '__';

export function namespacedName(namespace: string, name: string): string {
  return `${namespace}${SEPARATOR}${name}`;
}

function functionTool(tool: Json, field: string, name: string, prefix?: string): ChatFunctionTool {
  for (const [key, value] of Object.entries(tool)) {
    if (isUnset(value) || ['type', 'name', 'description', 'parameters', 'strict'].includes(key)) continue;
    if (key === 'allowed_callers' && Array.isArray(value) && value.every((c) => c === 'direct')) continue;
    if (key === 'defer_loading' && value === false) continue;
    refuse(`${field}.${key}`, 'function tools of the other protocols have no such field.');
  }
  const fn: ChatFunctionTool['function'] = { name, parameters: (tool.parameters as Json | null | undefined) ?? EMPTY_SCHEMA };
  const description = [prefix, asString(tool.description)].filter((d) => d).join('\n\n');
  if (description) fn.description = description;
  if (tool.strict === true) fn.strict = true;
  return { type: 'function', function: fn };
}

export interface TranslatedTools {
  tools: ChatFunctionTool[];
  namespaced: Map<string, NamespacedName>;
}

export function chatToolsFromResponses(value: unknown, target: string): TranslatedTools {
  const namespaced = new Map<string, NamespacedName>();
  if (isUnset(value)) return { tools: [], namespaced };
  if (!Array.isArray(value)) refuse('tools', 'must be a list of tools.');
  const tools: ChatFunctionTool[] = [];
  value.forEach((entry, i) => {
    const tool = asRecord(entry);
    const field = `tools[${i}]`;
    if (tool.type === 'function') {
      const name = asString(tool.name);
      if (!name) refuse(`${field}.name`, 'a function tool needs a name.');
      tools.push(functionTool(tool, field, name));
      return;
    }
    if (tool.type === 'namespace') {
      const namespace = asString(tool.name);
      if (!namespace) refuse(`${field}.name`, 'a namespace needs a name.');
      if (!Array.isArray(tool.tools)) refuse(`${field}.tools`, 'must be a list of function tools.');
      tool.tools.forEach((inner, j) => {
        const fn = asRecord(inner);
        const at = `${field}.tools[${j}]`;
        if (fn.type !== 'function') refuse(`${at}.type`, `"${String(fn.type)}" tools have no equivalent in ${target}; only functions can be grouped there.`);
        const name = asString(fn.name);
        if (!name) refuse(`${at}.name`, 'a function tool needs a name.');
        const flat = namespacedName(namespace, name);
        namespaced.set(flat, { namespace, name });
        tools.push(functionTool(fn, at, flat, asString(tool.description)));
      });
      return;
    }
    if (tool.type === 'custom') refuse(`${field}.type`, `free-form custom tools have no equivalent in ${target}; declare a function tool with a JSON schema.`);
    refuse(`${field}.type`, `"${String(tool.type)}" is a tool that runs at a Responses provider; ${target} has no such tool. Leave it out for this model (in the Codex CLI: web_search = "disabled").`);
  });
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.function.name)) refuse('tools', `the function name "${tool.function.name}" is declared twice (namespaced functions are named <namespace>${SEPARATOR}<name> upstream).`);
    seen.add(tool.function.name);
  }
  return { tools, namespaced };
}

export function chatToolChoiceFromResponses(value: unknown, target: string): ChatToolChoice | undefined {
  if (isUnset(value)) return undefined;
  if (value === 'none' || value === 'auto' || value === 'required') return value;
  const choice = asRecord(value);
  if (choice.type === 'function') {
    const name = asString(choice.name);
    if (!name) refuse('tool_choice.name', 'names the function to call.');
    return { type: 'function', function: { name } };
  }
  refuse('tool_choice', `"${String(choice.type ?? value)}" has no equivalent in ${target}; use none, auto, required or {"type": "function", "name": …}.`);
}
