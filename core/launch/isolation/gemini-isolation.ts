// Gemini CLI: GEMINI_CLI_HOME stands in for the home folder, so .gemini/ there is the launch's own.
// Its settings.json is the user's (MCP servers, tools, context files, trust settings…) with auth
// set to the API key the gateway takes (0.61.0 exits 41 without it when a base URL is set);
// trustedFolders.json and GEMINI.md are copied, extensions and commands linked.
import { dirname, join, resolve, sep } from 'node:path';
import { homeDir } from '../../paths.ts';
import { DIR, type IsolationInput, type IsolationSpec } from './isolation-spec.ts';
import { linksFor, mergeObjects, readJsonObject, readText } from './user-files.ts';

/** A one-shot prompt in a folder the user has not trusted (and folder trust is on): the CLI would refuse it. */
function headlessUntrusted(input: IsolationInput, user: Record<string, unknown> | undefined, from: string): boolean {
  if (!input.args.some((a) => a === '-p' || a === '--prompt' || a.startsWith('--prompt='))) return false;
  const trust = (user?.security as { folderTrust?: { enabled?: boolean } } | undefined)?.folderTrust;
  if (trust?.enabled === false) return false;
  if (input.env.GEMINI_CLI_TRUST_WORKSPACE !== undefined) return false;
  const folders = readJsonObject(join(from, 'trustedFolders.json'), { notes: [] }) ?? {};
  const cwd = resolve(input.cwd);
  return !Object.entries(folders).some(([path, level]) => {
    const p = resolve(path);
    if (level === 'TRUST_FOLDER') return cwd === p || cwd.startsWith(`${p}${sep}`);
    if (level === 'TRUST_PARENT') return cwd === dirname(p) || cwd.startsWith(`${dirname(p)}${sep}`);
    return cwd === p && level === 'DO_NOT_TRUST';
  });
}

export function geminiIsolation(input: IsolationInput): IsolationSpec {
  const spec: IsolationSpec = { env: { GEMINI_CLI_HOME: DIR }, files: [], links: [], carried: [], notes: [] };
  const from = join(input.env.GEMINI_CLI_HOME || homeDir(input.env), '.gemini');
  const user = readJsonObject(join(from, 'settings.json'), spec);
  const settings = mergeObjects(user ?? {}, { security: { auth: { selectedType: 'gemini-api-key' } } });
  spec.files.push({ path: '.gemini/settings.json', content: `${JSON.stringify(settings, null, 2)}\n` });
  if (user) spec.carried.push(`${join(from, 'settings.json')} (MCP servers, tools, trust; auth set to the gateway's API key)`);
  for (const name of ['trustedFolders.json', 'GEMINI.md']) {
    const text = readText(join(from, name));
    if (text === undefined) continue;
    spec.files.push({ path: join('.gemini', name), content: text });
    spec.carried.push(join(from, name));
  }
  if (headlessUntrusted(input, user, from)) {
    spec.env.GEMINI_CLI_TRUST_WORKSPACE = 'true';
    spec.notes.push(`${input.cwd} is not among your trusted folders and the CLI refuses a one-shot prompt there: GEMINI_CLI_TRUST_WORKSPACE=true for this launch only (trust the folder once in an interactive session to drop this)`);
  }
  const links = linksFor(from, ['extensions', 'commands', 'skills'], '.gemini');
  spec.links.push(...links);
  if (links.length) spec.carried.push(`linked: ${links.map((l) => l.path).join(', ')}`);
  return spec;
}
