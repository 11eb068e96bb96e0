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

/** Where gwctl keeps state it must find again (the backup manifest of `gwctl start`). */
export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME || join(homeDir(env), '.local', 'state');
  return join(base, 'gwctl');
}

/** `~` or `~/x` → under $HOME; `$NAME`/`${NAME}` → the variable (an unset one yields undefined). */
export function expandUserPath(path: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  let unset = false;
  const expanded = path.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_m, name: string) => {
    const value = name === 'HOME' ? homeDir(env) : env[name];
    if (value === undefined || value === '') unset = true;
    return value ?? '';
  });
  if (unset) return undefined;
  if (expanded === '~') return homeDir(env);
  if (expanded.startsWith('~/')) return join(homeDir(env), expanded.slice(2));
  return expanded;
}

/** Replaces the home directory prefix with `~` for display. */
export function tildePath(path: string, env: NodeJS.ProcessEnv = process.env): string {
  const home = homeDir(env);
  return path === home ? '~' : path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

/** Shell startup files where a variable can be pinned for every new shell. */
export function shellStartupFiles(env: NodeJS.ProcessEnv = process.env): string[] {
  const home = homeDir(env);
  const configHome = env.XDG_CONFIG_HOME || join(home, '.config');
  const zdot = env.ZDOTDIR || home;
  return [
    join(home, '.profile'),
    join(home, '.bash_profile'),
    join(home, '.bash_login'),
    join(home, '.bashrc'),
    join(zdot, '.zshenv'),
    join(zdot, '.zprofile'),
    join(zdot, '.zshrc'),
    join(configHome, 'fish', 'config.fish'),
  ];
}

/** Service definition files that `cache-fix-proxy install-service` writes. */
export function proxyServiceFiles(env: NodeJS.ProcessEnv = process.env): { systemd: string; launchd: string } {
  const home = homeDir(env);
  const configHome = env.XDG_CONFIG_HOME || join(home, '.config');
  return {
    systemd: join(configHome, 'systemd', 'user', 'cache-fix-proxy.service'),
    launchd: join(home, 'Library', 'LaunchAgents', 'com.cnighswonger.cache-fix-proxy.plist'),
  };
}

/** The healthcheck companion files next to the systemd unit (Linux/WSL only). */
export function proxyHealthcheckFiles(env: NodeJS.ProcessEnv = process.env): { service: string; timer: string } {
  const configHome = env.XDG_CONFIG_HOME || join(homeDir(env), '.config');
  const dir = join(configHome, 'systemd', 'user');
  return { service: join(dir, 'cache-fix-proxy-healthcheck.service'), timer: join(dir, 'cache-fix-proxy-healthcheck.timer') };
}

/** The proxy's observation directory: account.json and sessions/<id>.json. */
export function quotaStatusDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(homeDir(env), '.claude', 'quota-status');
}

/** The proxy's debug log when CACHE_FIX_DEBUG is on and CACHE_FIX_DEBUG_LOG does not name another. */
export function proxyDebugLog(env: NodeJS.ProcessEnv = process.env): string {
  return join(homeDir(env), '.claude', 'cache-fix-debug.log');
}

/** Where the launchd agent's stdout and stderr go (macOS). */
export function proxyLaunchdLogs(env: NodeJS.ProcessEnv = process.env): string[] {
  const dir = join(homeDir(env), 'Library', 'Logs');
  return [join(dir, 'cache-fix-proxy.log'), join(dir, 'cache-fix-proxy.err')];
}

/** What gwctl remembers about the proxy service it loaded last (to tell a changed definition). */
export function proxyServiceStateFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(defaultStateDir(env), 'proxy-service.json');
}
