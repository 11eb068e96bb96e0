import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ProxyError } from '../errors.ts';
import { HEALTHCHECK_SERVICE, HEALTHCHECK_TIMER, LAUNCHD_LABEL, SYSTEMD_UNIT } from '../service/service-settings.ts';
import type { CliIo } from './cli-io.ts';
import { unsupportedPlatform } from './install-service.ts';
import { launchAgentPath, systemdUserDir } from './service-paths.ts';

function uninstallSystemd(io: CliIo): void {
  const dir = systemdUserDir(io.env);
  const unitPath = join(dir, SYSTEMD_UNIT);
  // Stop first even when files are gone: a unit may still be loaded from before.
  for (const [verb, unit] of [['stop', HEALTHCHECK_TIMER], ['disable', HEALTHCHECK_TIMER], ['stop', SYSTEMD_UNIT], ['disable', SYSTEMD_UNIT]]) {
    io.run('systemctl', ['--user', verb, unit]);
  }
  if (!existsSync(unitPath)) {
    throw new ProxyError('not_installed', `[uninstall-service] not-installed: ${unitPath}`);
  }
  for (const name of [SYSTEMD_UNIT, HEALTHCHECK_SERVICE, HEALTHCHECK_TIMER]) rmSync(join(dir, name), { force: true });
  io.run('systemctl', ['--user', 'daemon-reload']);
  io.stdout(`Removed: ${unitPath} (+ 2 healthcheck files)\n`);
}

function uninstallLaunchd(io: CliIo): void {
  const plistPath = launchAgentPath(io.env);
  io.run('launchctl', ['bootout', `gui/${io.uid}`, plistPath]);
  if (!existsSync(plistPath)) {
    throw new ProxyError('not_installed', `[uninstall-service] not-installed: ${plistPath}`);
  }
  rmSync(plistPath, { force: true });
  io.stdout(`Removed: ${plistPath} (${LAUNCHD_LABEL})\n`);
}

export function uninstallService(io: CliIo): void {
  if (io.platform === 'linux') uninstallSystemd(io);
  else if (io.platform === 'darwin') uninstallLaunchd(io);
  else throw unsupportedPlatform(io.platform);
}
