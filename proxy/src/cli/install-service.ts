import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProxyError } from '../errors.ts';
import { captureServiceSettings, HEALTHCHECK_SERVICE, HEALTHCHECK_TIMER, LAUNCHD_LABEL, SYSTEMD_UNIT } from '../service/service-settings.ts';
import { renderHealthcheckService, renderHealthcheckTimer, renderProxyUnit } from '../service/systemd-units.ts';
import { renderLaunchdPlist } from '../service/launchd-plist.ts';
import type { CliIo } from './cli-io.ts';
import { launchAgentPath, launchdLogDir, systemdUserDir } from './service-paths.ts';

export function unsupportedPlatform(platform: string): ProxyError {
  return new ProxyError(
    'unsupported_platform',
    `[install-service] Unsupported platform: ${platform}`,
    'run "cache-fix-proxy server" under your own supervisor; on Windows use the proxy inside WSL',
  );
}

function installSystemd(io: CliIo, force: boolean): void {
  const dir = systemdUserDir(io.env);
  const unitPath = join(dir, SYSTEMD_UNIT);
  if (existsSync(unitPath) && !force) {
    throw new ProxyError('already_installed', `[install-service] already-installed: ${unitPath}`, 'rerun with --force to regenerate it, then: systemctl --user daemon-reload && systemctl --user restart cache-fix-proxy');
  }
  const settings = captureServiceSettings(io.env, { nodePath: io.nodePath, scriptPath: io.scriptPath, workingDirectory: io.packageRoot });
  mkdirSync(dir, { recursive: true });
  writeFileSync(unitPath, renderProxyUnit(settings));
  const servicePath = join(dir, HEALTHCHECK_SERVICE);
  const timerPath = join(dir, HEALTHCHECK_TIMER);
  try {
    writeFileSync(servicePath, renderHealthcheckService(settings));
    writeFileSync(timerPath, renderHealthcheckTimer());
  } catch (error) {
    // Half an installation would pass a file check yet never recover the proxy.
    rmSync(unitPath, { force: true });
    rmSync(servicePath, { force: true });
    throw error;
  }
  io.stdout(
    [
      `Wrote systemd unit: ${unitPath}`,
      `Wrote healthcheck companion: ${servicePath}`,
      `Wrote healthcheck timer:     ${timerPath}`,
      `Captured: ${settings.environment.map(([name]) => name).join(', ')}`,
      '',
      'Next steps:',
      '  systemctl --user daemon-reload',
      `  systemctl --user ${force ? 'restart' : 'enable --now'} cache-fix-proxy`,
      '  systemctl --user enable --now cache-fix-proxy-healthcheck.timer   # restarts the proxy when /health is not 200',
      `  loginctl enable-linger ${io.env.USER || '<your-user>'}   # keep it running while you are logged out`,
      `  curl -s http://127.0.0.1:${settings.port}/health`,
      '',
    ].join('\n'),
  );
}

function installLaunchd(io: CliIo, force: boolean): void {
  const plistPath = launchAgentPath(io.env);
  if (existsSync(plistPath) && !force) {
    throw new ProxyError('already_installed', `[install-service] already-installed: ${plistPath}`, 'rerun with --force to regenerate it, then bootout and bootstrap the agent again');
  }
  const settings = captureServiceSettings(io.env, { nodePath: io.nodePath, scriptPath: io.scriptPath, workingDirectory: io.packageRoot });
  const logDir = launchdLogDir(io.env);
  mkdirSync(join(plistPath, '..'), { recursive: true });
  mkdirSync(logDir, { recursive: true });
  writeFileSync(plistPath, renderLaunchdPlist(settings, logDir));
  const domain = `gui/${io.uid}`;
  io.stdout(
    [
      `Wrote launchd plist: ${plistPath}`,
      `Captured: ${settings.environment.map(([name]) => name).join(', ')}`,
      '',
      'Next steps:',
      ...(force ? [`  launchctl bootout ${domain} ${plistPath}   # unload the old definition first`] : []),
      `  launchctl bootstrap ${domain} ${plistPath}`,
      `  launchctl enable ${domain}/${LAUNCHD_LABEL}`,
      `  launchctl kickstart -k ${domain}/${LAUNCHD_LABEL}`,
      `  curl -s http://127.0.0.1:${settings.port}/health`,
      '',
    ].join('\n'),
  );
}

export function installService(io: CliIo, force: boolean): void {
  if (io.platform === 'linux') installSystemd(io, force);
  else if (io.platform === 'darwin') installLaunchd(io, force);
  else throw unsupportedPlatform(io.platform);
}
