// The systemd unit that runs `gwctl serve` as a system service. Settings (GWCTL_* variables) live
// in an EnvironmentFile, so an upgrade of the unit never touches them; the data directory is the
// unit's StateDirectory, so the service may write nowhere else.

export interface GatewayUnitOptions {
  /** Absolute path of node. */
  nodePath: string;
  /** Absolute path of gwctl's bin/gwctl.js. */
  gwctlPath: string;
  /** Where the GWCTL_* settings are (see gwctl.env next to this file). */
  environmentFile: string;
  /** The system account the gateway runs as. */
  user: string;
  /** How long in-flight requests may finish after SIGTERM (GWCTL_DRAIN_MS); the stop timeout adds a margin. */
  drainMs: number;
}

export const UNIT_DEFAULTS = { environmentFile: '/etc/gwctl/gwctl.env', user: 'gwctl' } as const;

/** systemd quoting for one ExecStart word: always quoted, `"`, `\` escaped, `%` and `$` doubled. */
function execWord(word: string): string {
  return `"${word.replace(/[\\"]/g, (c) => `\\${c}`).replace(/%/g, '%%').replace(/\$/g, '$$$$')}"`;
}

export function renderGatewayUnit(options: GatewayUnitOptions): string {
  const stopSeconds = Math.ceil(options.drainMs / 1000) + 15;
  return [
    '# gwctl gateway: text API and image API. Settings: GWCTL_* variables in the EnvironmentFile.',
    '# Made by `gwctl serve --print-systemd-unit`; install as /etc/systemd/system/gwctl.service.',
    '[Unit]',
    'Description=gwctl gateway (text API and image API)',
    'Wants=network-online.target',
    'After=network-online.target',
    '',
    '[Service]',
    'Type=simple',
    `User=${options.user}`,
    `Group=${options.user}`,
    `EnvironmentFile=${options.environmentFile}`,
    // The embedded SQLite database lives here unless GWCTL_DATA_DIR or GWCTL_DATABASE_URL say otherwise.
    'StateDirectory=gwctl',
    'StateDirectoryMode=0750',
    'WorkingDirectory=/var/lib/gwctl',
    'Environment=HOME=/var/lib/gwctl',
    'Environment=GWCTL_DATA_DIR=/var/lib/gwctl',
    'Environment=NODE_ENV=production',
    `ExecStart=${[options.nodePath, options.gwctlPath, 'serve'].map(execWord).join(' ')}`,
    // SIGTERM lets in-flight requests and streams finish and flushes usage; then the process exits 0.
    'KillSignal=SIGTERM',
    `TimeoutStopSec=${stopSeconds}`,
    'Restart=on-failure',
    'RestartSec=2s',
    'NoNewPrivileges=yes',
    'ProtectSystem=strict',
    // Read-only rather than hidden: node or gwctl may be installed under a home directory (nvm).
    'ProtectHome=read-only',
    'PrivateTmp=yes',
    'PrivateDevices=yes',
    'ProtectKernelTunables=yes',
    'ProtectKernelModules=yes',
    'ProtectControlGroups=yes',
    'RestrictSUIDSGID=yes',
    'LockPersonality=yes',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ].join('\n');
}
