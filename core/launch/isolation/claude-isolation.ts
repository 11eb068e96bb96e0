// Claude Code: CLAUDE_CONFIG_DIR points at a folder of the launch's own. Its settings.json is the
// user's (permissions, hooks, MCP servers, status line…) without the variables and the key helper
// that would win over what gwctl sets; its .claude.json is the user's (MCP servers, trusted
// projects); CLAUDE.md and the agents, commands, skills, output styles, plugins and
// session history (projects, so --continue still finds the last session) are linked.
import { join } from 'node:path';
import { homeDir } from '../../paths.ts';
import { DIR, type IsolationInput, type IsolationSpec } from './isolation-spec.ts';
import { linksFor, readJsonObject } from './user-files.ts';

export function claudeIsolation(input: IsolationInput): IsolationSpec {
  const spec: IsolationSpec = { env: { CLAUDE_CONFIG_DIR: DIR }, files: [], links: [], carried: [], notes: [] };
  const own = input.env.CLAUDE_CONFIG_DIR;
  const from = own || join(homeDir(input.env), '.claude');
  const state = own ? join(own, '.claude.json') : join(homeDir(input.env), '.claude.json');
  const p = input.profile;
  const ours = new Set([p.baseUrlVar, p.tokenVar, p.apiKeyVar, p.modelVar, ...p.backgroundModelVars]);

  const found = readJsonObject(join(from, 'settings.json'), spec);
  const settings = found ?? {};
  const dropped: string[] = [];
  if (settings.env && typeof settings.env === 'object') {
    const env = { ...(settings.env as Record<string, unknown>) };
    for (const name of Object.keys(env)) if (ours.has(name)) (delete env[name], dropped.push(`env.${name}`));
    settings.env = env;
  }
  if ('apiKeyHelper' in settings) (delete settings.apiKeyHelper, dropped.push('apiKeyHelper'));
  spec.files.push({ path: 'settings.json', content: `${JSON.stringify(settings, null, 2)}\n` });
  if (found) spec.carried.push(`${join(from, 'settings.json')} (permissions, hooks, MCP servers${dropped.length ? `; without ${dropped.join(', ')}` : ''})`);

  const stateJson = readJsonObject(state, spec);
  if (stateJson) {
    spec.files.push({ path: '.claude.json', content: `${JSON.stringify(stateJson, null, 2)}\n` });
    spec.carried.push(`${state} (MCP servers, trusted projects)`);
  }
  const links = linksFor(from, ['CLAUDE.md', 'agents', 'commands', 'skills', 'output-styles', 'plugins', 'projects']);
  spec.links.push(...links);
  if (links.length) spec.carried.push(`linked: ${links.map((l) => l.path).join(', ')}`);
  return spec;
}
