// The messages-protocol client as gwctl sees it: command, auth path, variable names, settings files.
import { isAbsolute, resolve } from 'node:path';
import { expandUserPath } from '../paths.ts';
import type { ResolvedSettings } from './resolve-settings.ts';

export type AuthPath = 'service' | 'vendor' | 'oauth';

export interface ClientProfile {
  command: string;
  auth: AuthPath;
  baseUrlVar: string;
  tokenVar: string;
  apiKeyVar: string;
  /** Absolute paths; entries naming an unset variable ($CLAUDE_CONFIG_DIR) are left out. */
  settingsFiles: string[];
}

export function clientProfile(settings: ResolvedSettings, env: NodeJS.ProcessEnv, cwd: string): ClientProfile {
  const files = (settings['client.settingsFiles'].value as string[])
    .map((entry) => expandUserPath(entry, env))
    .filter((p): p is string => p !== undefined)
    .map((p) => (isAbsolute(p) ? p : resolve(cwd, p)));
  return {
    command: settings['client.command'].value as string,
    auth: settings['client.auth'].value as AuthPath,
    baseUrlVar: settings['client.baseUrlVar'].value as string,
    tokenVar: settings['client.tokenVar'].value as string,
    apiKeyVar: settings['client.apiKeyVar'].value as string,
    settingsFiles: [...new Set(files)],
  };
}
