// Codex CLI: CODEX_HOME points at a folder of the launch's own whose config.toml is the user's
// (MCP servers, approval and sandbox policy, trusted projects, profiles…) with gwctl's provider as
// the one in use: a Responses provider reading the key from MSGAPI_AUTH_TOKEN. auth.json (a vendor
// login) is not carried over; AGENTS.md, prompts, rules and skills are linked.
import { join } from 'node:path';
import { homeDir } from '../../paths.ts';
import { NEUTRAL_VARS } from '../../config/client-profiles.ts';
import { DIR, type IsolationInput, type IsolationSpec } from './isolation-spec.ts';
import { linksFor, readText } from './user-files.ts';

export const CODEX_PROVIDER_ID = 'gwctl';
const quote = (value: string) => JSON.stringify(value);

/** The user's config.toml with the top-level model and provider choice removed (gwctl's replace them). */
function withoutChoice(text: string): { top: string[]; tables: string[]; removed: string[] } {
  const lines = text.split('\n');
  const first = lines.findIndex((line) => /^\s*\[/.test(line));
  const top = first === -1 ? lines : lines.slice(0, first);
  const tables = first === -1 ? [] : lines.slice(first);
  const removed: string[] = [];
  const kept = top.filter((line) => {
    const m = /^\s*(model|model_provider)\s*=/.exec(line);
    if (m) removed.push(m[1]!);
    return !m;
  });
  return { top: kept, tables, removed };
}

export function codexConfig(user: string, baseUrl: string, model: string | null): string {
  const { top, tables } = withoutChoice(user);
  const webSearch = top.some((line) => /^\s*web_search\s*=/.test(line));
  return [
    ...(model ? [`model = ${quote(model)}`] : []),
    `model_provider = ${quote(CODEX_PROVIDER_ID)}`,
    // A model served through translation has no hosted tools and refuses requests that offer them.
    ...(webSearch ? [] : ['web_search = "disabled"']),
    ...top,
    ...tables,
    '',
    `[model_providers.${CODEX_PROVIDER_ID}]`,
    'name = "gwctl gateway"',
    `base_url = ${quote(baseUrl)}`,
    `env_key = ${quote(NEUTRAL_VARS.token)}`,
    'wire_api = "responses"',
    '',
  ].join('\n');
}

export function codexIsolation(input: IsolationInput): IsolationSpec {
  const spec: IsolationSpec = { env: { CODEX_HOME: DIR }, files: [], links: [], carried: [], notes: [] };
  const from = input.env.CODEX_HOME || join(homeDir(input.env), '.codex');
  const user = readText(join(from, 'config.toml'));
  spec.files.push({ path: 'config.toml', content: codexConfig(user ?? '', input.baseUrl, input.model) });
  if (user !== undefined) spec.carried.push(`${join(from, 'config.toml')} (MCP servers, approval and sandbox policy, projects; model and model_provider replaced)`);
  const links = linksFor(from, ['AGENTS.md', 'prompts', 'rules', 'skills', 'sessions']);
  spec.links.push(...links);
  if (links.length) spec.carried.push(`linked: ${links.map((l) => l.path).join(', ')}`);
  return spec;
}

/** Codex exec refuses to run outside a git repository unless told; a launch says it once. */
export function codexArgs(args: string[], inGitRepo: boolean): { args: string[]; note: string | null } {
  if (args[0] !== 'exec' || inGitRepo || args.includes('--skip-git-repo-check')) return { args, note: null };
  return { args: ['exec', '--skip-git-repo-check', ...args.slice(1)], note: 'not in a git repository: --skip-git-repo-check added to codex exec' };
}
