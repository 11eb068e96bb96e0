// Qwen Code: QWEN_HOME points at a folder of the launch's own. Its settings.json is the user's (MCP
// servers, tools, permissions, trust) with the OpenAI auth type the gateway takes; QWEN.md is
// copied, extensions, commands, agents and skills are linked. Base URL, key and model go in its
// variables (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL).
import { join } from 'node:path';
import { homeDir } from '../../paths.ts';
import { DIR, type IsolationInput, type IsolationSpec } from './isolation-spec.ts';
import { linksFor, mergeObjects, readJsonObject, readText } from './user-files.ts';

export function qwenIsolation(input: IsolationInput): IsolationSpec {
  const spec: IsolationSpec = { env: { QWEN_HOME: DIR }, files: [], links: [], carried: [], notes: [] };
  const from = input.env.QWEN_HOME || join(homeDir(input.env), '.qwen');
  const user = readJsonObject(join(from, 'settings.json'), spec);
  const settings = mergeObjects(user ?? {}, { security: { auth: { selectedType: 'openai' } } });
  spec.files.push({ path: 'settings.json', content: `${JSON.stringify(settings, null, 2)}\n` });
  if (user) spec.carried.push(`${join(from, 'settings.json')} (MCP servers, tools, permissions; auth set to the gateway's OpenAI-compatible API)`);
  const text = readText(join(from, 'QWEN.md'));
  if (text !== undefined) {
    spec.files.push({ path: 'QWEN.md', content: text });
    spec.carried.push(join(from, 'QWEN.md'));
  }
  const links = linksFor(from, ['extensions', 'commands', 'agents', 'skills']);
  spec.links.push(...links);
  if (links.length) spec.carried.push(`linked: ${links.map((l) => l.path).join(', ')}`);
  return spec;
}
