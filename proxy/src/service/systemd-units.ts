import { HEALTHCHECK_SERVICE, HEALTHCHECK_TIMER, SYSTEMD_UNIT, type ServiceSettings } from './service-settings.ts';

/**
 * systemd expands `%` specifiers everywhere and `$` variables in Exec lines, and splits on
 * whitespace, so every value is escaped and quoted when it needs to be.
 */
export function systemdQuote(value: string, execLine: boolean): string {
  let text = value.replace(/%/g, '%%');
  if (execLine) text = text.replace(/\$/g, '$$$$');
  if (/[\s"'\\;]/.test(text) || text === '') text = `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  return text;
}

function environmentLine(name: string, value: string): string {
  return `Environment=${systemdQuote(`${name}=${value}`, false)}`;
}

function execLine(args: string[]): string {
  return args.map((arg) => systemdQuote(arg, true)).join(' ');
}

export function renderProxyUnit(settings: ServiceSettings): string {
  return [
    '[Unit]',
    'Description=cache-fix-proxy 4.2.1 (local messages-API cache proxy, loopback only)',
    'After=network-online.target',
    'Wants=network-online.target',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${execLine([settings.nodePath, settings.scriptPath, 'server'])}`,
    ...settings.environment.map(([name, value]) => environmentLine(name, value)),
    // A path setting, not a command line: spaces are literal and quotes are not understood.
    `WorkingDirectory=${settings.workingDirectory.replace(/%/g, '%%')}`,
    // Any exit is restarted: a clean exit is not expected while the unit is meant to run.
    'Restart=always',
    'RestartSec=5',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

/**
 * The check restarts (not just starts) the proxy when /health is not 200, so a degraded proxy
 * that is still running (503) is recovered too, which 4.2.1's `start` could not do.
 */
export function renderHealthcheckService(settings: ServiceSettings): string {
  return [
    '[Unit]',
    'Description=cache-fix-proxy health check (restarts the proxy when /health is not 200)',
    `After=${SYSTEMD_UNIT}`,
    '',
    '[Service]',
    'Type=oneshot',
    environmentLine('CACHE_FIX_PROXY_PORT', String(settings.port)),
    `ExecStart=${execLine([settings.nodePath, settings.scriptPath, 'healthcheck', '--restart-unit', SYSTEMD_UNIT])}`,
    '',
  ].join('\n');
}

export function renderHealthcheckTimer(): string {
  return [
    '[Unit]',
    'Description=Run the cache-fix-proxy health check every 2 minutes',
    '',
    '[Timer]',
    'OnBootSec=30s',
    'OnUnitActiveSec=2min',
    'AccuracySec=15s',
    `Unit=${HEALTHCHECK_SERVICE}`,
    '',
    '[Install]',
    'WantedBy=timers.target',
    '',
  ].join('\n');
}

export const SYSTEMD_FILES = [SYSTEMD_UNIT, HEALTHCHECK_SERVICE, HEALTHCHECK_TIMER] as const;
