// A launch's own configuration: the spec of the profile's client, written into a fresh folder
// (0700, files 0600) that is removed when the client exits. Two launches never share a folder.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { IsolationKind } from '../../config/client-profiles.ts';
import { claudeIsolation } from './claude-isolation.ts';
import { codexIsolation } from './codex-isolation.ts';
import { geminiIsolation } from './gemini-isolation.ts';
import { DIR, type IsolationInput, type IsolationSpec } from './isolation-spec.ts';
import { opencodeIsolation } from './opencode-isolation.ts';
import { qwenIsolation } from './qwen-isolation.ts';

const SPECS: Record<IsolationKind, (input: IsolationInput) => IsolationSpec> = {
  claude: claudeIsolation,
  codex: codexIsolation,
  gemini: geminiIsolation,
  opencode: opencodeIsolation,
  qwen: qwenIsolation,
};

/** What the plan shows: the folder (a pattern: it is made just before the launch), variables, files and what was kept. */
export interface IsolationPlan {
  kind: IsolationKind;
  dir: string;
  env: Record<string, string>;
  files: string[];
  links: Array<{ path: string; target: string }>;
  carried: string[];
  notes: string[];
}

export function planIsolation(kind: IsolationKind, input: IsolationInput): { plan: IsolationPlan; spec: IsolationSpec } {
  const spec = SPECS[kind](input);
  const plan: IsolationPlan = { kind, dir: `$TMPDIR/gwctl-${kind}-…`, env: spec.env, files: spec.files.map((f) => f.path), links: spec.links, carried: spec.carried, notes: spec.notes };
  return { plan, spec };
}

export interface PreparedIsolation {
  dir: string;
  /** The variables with the folder filled in. */
  env: Record<string, string>;
  cleanup(): void;
}

export function writeIsolation(kind: IsolationKind, spec: IsolationSpec, root = tmpdir()): PreparedIsolation {
  const dir = mkdtempSync(join(root, `gwctl-${kind}-`));
  let removed = false;
  const cleanup = () => {
    if (removed) return;
    removed = true;
    rmSync(dir, { recursive: true, force: true });
    process.off('exit', cleanup);
  };
  // A gwctl that dies between launch and cleanup still removes the folder on a normal exit.
  process.on('exit', cleanup);
  try {
    for (const file of spec.files) {
      const path = join(dir, file.path);
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writeFileSync(path, file.content, { mode: 0o600 });
    }
    for (const link of spec.links) {
      const path = join(dir, link.path);
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      symlinkSync(link.target, path);
    }
  } catch (error) {
    cleanup();
    throw error;
  }
  const env = Object.fromEntries(Object.entries(spec.env).map(([name, value]) => [name, value.split(DIR).join(dir)]));
  return { dir, env, cleanup };
}
