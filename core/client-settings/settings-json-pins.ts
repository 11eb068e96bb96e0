// The `env` block of a client settings JSON file: which pinned variables it holds, and the same file
// without them (every other setting kept; indentation and final newline as they were).
import { makeEntry, type PinnedEntry, type PinRole, type PinVariables } from './pinned-entry.ts';

export type SettingsRead = { ok: true; entries: PinnedEntry[] } | { ok: false; reason: string };

function roles(vars: PinVariables): Array<[string, PinRole]> {
  return [
    [vars.baseUrl, 'baseUrl'],
    [vars.token, 'token'],
    [vars.apiKey, 'apiKey'],
  ];
}

function parseObject(text: string): Record<string, unknown> | undefined {
  const parsed: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
}

export const settingsJsonPins = {
  find(file: string, text: string, vars: PinVariables): SettingsRead {
    let root: Record<string, unknown> | undefined;
    try {
      root = parseObject(text);
    } catch (error) {
      return { ok: false, reason: `not valid JSON (${(error as Error).message.split('\n', 1)[0]}); left untouched` };
    }
    if (!root) return { ok: false, reason: 'not a JSON object; left untouched' };
    const env = root.env;
    if (!env || typeof env !== 'object' || Array.isArray(env)) return { ok: true, entries: [] };
    const entries: PinnedEntry[] = [];
    for (const [variable, role] of roles(vars)) {
      if (!(variable in env)) continue;
      const raw = (env as Record<string, unknown>)[variable];
      entries.push(makeEntry({ file, fileKind: 'settings', variable, role, removable: true }, typeof raw === 'string' ? raw : JSON.stringify(raw)));
    }
    return { ok: true, entries };
  },

  remove(text: string, variables: string[]): string {
    const root = parseObject(text)!;
    const env = root.env as Record<string, unknown>;
    for (const name of variables) delete env[name];
    const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? '  ';
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
    const body = bom + JSON.stringify(root, null, indent).replace(/\n/g, eol);
    return text.endsWith('\n') ? body + eol : body;
  },
};
