// The installed service definition as gwctl needs it: what it captured (upstream, port,
// debug, body-altering options), which program it runs, a fingerprint to tell whether it changed
// since the supervisor last loaded it, and a timestamped backup before changes.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../client-settings/atomic-write.ts';
import { backupFile } from '../client-settings/backup-file.ts';
import { readProxyServiceDefinition } from '../client/proxy-service-definition.ts';
import { proxyServiceFiles, proxyServiceStateFile } from '../paths.ts';
import type { SupervisorKind } from './supervisor.ts';

/** Options that change request bodies: enabling them is an advanced change. */
export const BODY_ALTERING: ReadonlyArray<{ variable: string; enabled: (value: string) => boolean; label: string }> = [
  { variable: 'CACHE_FIX_THINKING_SANITIZE', enabled: (v) => v === 'v2', label: 'thinking-block sanitize v2' },
  { variable: 'CACHE_FIX_BOOTSTRAP_MODE', enabled: (v) => v === 'block' || v === 'allowlist', label: 'bootstrap-defense block/allowlist' },
  { variable: 'CACHE_FIX_AUTO_1M_GUARD', enabled: (v) => v === 'strip', label: 'auto-1M strip' },
  { variable: 'CACHE_FIX_OAUTH_REFRESH', enabled: (v) => v === 'on', label: 'OAuth refresh' },
];

export interface DefinitionFile {
  kind: SupervisorKind;
  file: string;
  exists: boolean;
  /** CACHE_FIX_PROXY_UPSTREAM as captured; undefined = not captured (the default). */
  upstream?: string;
  port?: number;
  debug: boolean;
  debugLog?: string;
  /** Labels of body-altering options the file turns on. */
  bodyAltering: string[];
  /** The program and script it runs (ExecStart / ProgramArguments). */
  program?: string[];
  sha256?: string;
}

function programOf(kind: SupervisorKind, text: string): string[] | undefined {
  if (kind === 'systemd') {
    const line = /^\s*ExecStart\s*=\s*(.+)$/m.exec(text)?.[1];
    return line ? (line.match(/"(?:\\.|[^"])*"|\S+/g) ?? []).map((w) => w.replace(/^"|"$/g, '').replace(/\\(.)/g, '$1').replace(/%%/g, '%').replace(/\$\$/g, '$')) : undefined;
  }
  const block = /<key>ProgramArguments<\/key>\s*<array>([\s\S]*?)<\/array>/.exec(text)?.[1];
  return block ? [...block.matchAll(/<string>([^<]*)<\/string>/g)].map((m) => m[1]!.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&')) : undefined;
}

export function readDefinition(kind: SupervisorKind, env: NodeJS.ProcessEnv): DefinitionFile {
  const file = proxyServiceFiles(env)[kind];
  if (!existsSync(file)) return { kind, file, exists: false, debug: false, bodyAltering: [] };
  const text = readFileSync(file, 'utf8');
  const parsed = readProxyServiceDefinition(env, kind === 'launchd' ? 'darwin' : 'linux');
  const vars = parsed && parsed.file === file ? parsed.environment : {};
  const port = vars.CACHE_FIX_PROXY_PORT !== undefined && /^\d+$/.test(vars.CACHE_FIX_PROXY_PORT) ? Number(vars.CACHE_FIX_PROXY_PORT) : 9801;
  return {
    kind,
    file,
    exists: true,
    upstream: vars.CACHE_FIX_PROXY_UPSTREAM || undefined,
    port,
    debug: Boolean(vars.CACHE_FIX_DEBUG),
    debugLog: vars.CACHE_FIX_DEBUG_LOG || undefined,
    bodyAltering: BODY_ALTERING.filter((b) => vars[b.variable] !== undefined && b.enabled(vars[b.variable]!)).map((b) => b.label),
    program: programOf(kind, text),
    sha256: createHash('sha256').update(text).digest('hex'),
  };
}

/** Labels of body-altering options this environment turns on. */
export function bodyAlteringIn(env: NodeJS.ProcessEnv): string[] {
  return BODY_ALTERING.filter((b) => env[b.variable] !== undefined && b.enabled(env[b.variable]!)).map((b) => b.label);
}

export function backupDefinition(definition: DefinitionFile, now: Date): string | null {
  return definition.exists ? backupFile(definition.file, now) : null;
}

interface LoadedState {
  kind: SupervisorKind;
  sha256: string;
  loadedAt: string;
}

/** The fingerprint of the definition the supervisor was last told to load, if gwctl did it. */
export function lastLoaded(env: NodeJS.ProcessEnv, kind: SupervisorKind): LoadedState | undefined {
  try {
    const state = JSON.parse(readFileSync(proxyServiceStateFile(env), 'utf8')) as LoadedState;
    return state.kind === kind && typeof state.sha256 === 'string' ? state : undefined;
  } catch {
    return undefined;
  }
}

export function rememberLoaded(env: NodeJS.ProcessEnv, definition: DefinitionFile, now: Date): void {
  if (!definition.sha256) return;
  const file = proxyServiceStateFile(env);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileAtomic(file, `${JSON.stringify({ kind: definition.kind, sha256: definition.sha256, loadedAt: now.toISOString() }, null, 2)}\n`);
}

/** True unless gwctl knows the supervisor loaded exactly this file (unknown counts as changed). */
export function definitionChanged(env: NodeJS.ProcessEnv, definition: DefinitionFile): boolean {
  const state = lastLoaded(env, definition.kind);
  return !state || state.sha256 !== definition.sha256;
}
