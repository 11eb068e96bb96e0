import { join } from 'node:path';
import { homeDirOf } from '../config/proxy-config.ts';
import type { Env } from '../config/env.ts';
import { LAUNCHD_LABEL } from '../service/service-settings.ts';

export function systemdUserDir(env: Env): string {
  const configHome = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : join(homeDirOf(env), '.config');
  return join(configHome, 'systemd', 'user');
}

export function launchAgentPath(env: Env): string {
  return join(homeDirOf(env), 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
}

export function launchdLogDir(env: Env): string {
  return join(homeDirOf(env), 'Library', 'Logs');
}
