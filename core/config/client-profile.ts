// The coding client as gwctl sees it, from the settings and the active profile: command,
// auth path, the variables it reads, where its key may be kept, its settings files and its model.
import { isAbsolute, resolve } from 'node:path';
import { expandUserPath } from '../paths.ts';
import { CLIENT_PROFILES, NEUTRAL_VARS, VENDOR_CREDENTIALS, type ClientProtocol, type IsolationKind, type ProfileName } from './client-profiles.ts';
import type { ResolvedSettings } from './resolve-settings.ts';
import { SettingError } from './setting-error.ts';

export type AuthPath = 'service' | 'vendor' | 'oauth';

export interface ClientProfile {
  name: ProfileName;
  command: string;
  describe: string;
  auth: AuthPath;
  protocol: ClientProtocol;
  /** '' or '/v1': what the client's base address adds to {base_url}. */
  basePath: '' | '/v1';
  /** Vendor credentials removed from the client's environment (besides its own credential variables). */
  vendorVars: readonly string[];
  modelPick: 'own' | 'always';
  isolation: IsolationKind | null;
  baseUrlVar: string;
  tokenVar: string;
  apiKeyVar: string;
  /** Where a key of this service may be kept: the client's own variable first, then the neutral name. */
  tokenSources: string[];
  /** Where an official vendor key may be kept, in the same order. */
  apiKeySources: string[];
  modelVar: string;
  backgroundModelVars: string[];
  /** The client.model setting when it is set, with where it came from. */
  model: { id: string; origin: string } | null;
  /** Model ids the client asks for by itself start with this; null = unknown. */
  ownModelPrefix: string | null;
  /** The model the client asks for when nothing names another; null = unknown. */
  clientDefaultModel: string | null;
  /** Absolute paths; entries naming an unset variable ($CLAUDE_CONFIG_DIR) are left out. */
  settingsFiles: string[];
}

const VENDOR_NAMED_TOKEN_VARS = new Set(['OPENAI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY']);

/** Where a key of this service is looked for, in order, for a client reading it from `tokenVar`. */
export function tokenSourcesFor(tokenVar: string): string[] {
  return [...new Set(VENDOR_NAMED_TOKEN_VARS.has(tokenVar) ? [NEUTRAL_VARS.token, tokenVar] : [tokenVar, NEUTRAL_VARS.token])];
}

function origin(settings: ResolvedSettings, key: 'client.model'): string {
  const s = settings[key];
  return s.source === 'flag' || s.source === 'env' ? `${s.origin}` : s.source === 'file' ? 'the settings file' : s.source;
}

/** Throws SettingError when the profile names no client and client.command is not set. */
export function clientProfile(settings: ResolvedSettings, env: NodeJS.ProcessEnv, cwd: string): ClientProfile {
  const name = settings['client.profile'].value as ProfileName;
  const command = settings['client.command'].value as string | null;
  if (!command) {
    throw new SettingError(`client.command is not set, and the ${name} profile names no client.`, 'Name the client to start: `gwctl config set client.command <command>` (or pass --client <command>).');
  }
  const files = (settings['client.settingsFiles'].value as string[])
    .map((entry) => expandUserPath(entry, env))
    .filter((p): p is string => p !== undefined)
    .map((p) => (isAbsolute(p) ? p : resolve(cwd, p)));
  const tokenVar = settings['client.tokenVar'].value as string;
  const apiKeyVar = settings['client.apiKeyVar'].value as string;
  const model = settings['client.model'].value as string | null;
  return {
    name,
    command,
    describe: CLIENT_PROFILES[name].describe,
    protocol: CLIENT_PROFILES[name].protocol,
    basePath: CLIENT_PROFILES[name].basePath,
    vendorVars: VENDOR_CREDENTIALS,
    modelPick: CLIENT_PROFILES[name].modelPick,
    isolation: CLIENT_PROFILES[name].isolation,
    auth: settings['client.auth'].value as AuthPath,
    baseUrlVar: settings['client.baseUrlVar'].value as string,
    tokenVar,
    apiKeyVar,
    // A vendor-named variable (OPENAI_API_KEY, GEMINI_API_KEY) in a developer's shell most likely
    // holds that vendor's key, so for those clients the neutral name is looked at first.
    tokenSources: tokenSourcesFor(tokenVar),
    apiKeySources: [...new Set([apiKeyVar, NEUTRAL_VARS.apiKey])],
    modelVar: settings['client.modelVar'].value as string,
    backgroundModelVars: (settings['client.backgroundModelVars'].value as string[]).filter((v) => v !== settings['client.modelVar'].value),
    model: model ? { id: model, origin: origin(settings, 'client.model') } : null,
    ownModelPrefix: CLIENT_PROFILES[name].ownModelPrefix,
    clientDefaultModel: CLIENT_PROFILES[name].clientDefaultModel,
    settingsFiles: [...new Set(files)],
  };
}
