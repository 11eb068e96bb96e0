// The only module that reads $HOME and the XDG variables; tests redirect it through the environment.
import { homedir } from 'node:os';
import { join } from 'node:path';

export function homeDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.HOME || homedir();
}

/** Where the gateway keeps its embedded database when no --data-dir is given. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME || join(homeDir(env), '.local', 'share');
  return join(base, 'gwctl');
}

/** Where gwctl keeps its own settings. */
export function defaultConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || join(homeDir(env), '.config');
  return join(base, 'gwctl');
}
