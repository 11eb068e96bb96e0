// The user-level supervisor of the proxy service: systemd user units on Linux and
// WSL, a launchd agent on macOS. Only command lists and state parsing live here; every command runs
// through the one CommandRunner, so tests record them and --dry-run prints them.
import { proxyServiceFiles } from '../paths.ts';
import { commandLine, type CommandRunner, type RunResult } from './command-runner.ts';

export type SupervisorKind = 'systemd' | 'launchd';

export const UNIT = 'cache-fix-proxy';
export const TIMER = 'cache-fix-proxy-healthcheck.timer';
export const LABEL = 'com.cnighswonger.cache-fix-proxy';

export interface SupervisorCommand {
  command: string;
  args: string[];
  /** A failure is expected and harmless (e.g. unloading an agent that is not loaded). */
  optional?: boolean;
}

export interface UnitState {
  /** `enabled`, `disabled`, `not-found`, … as the supervisor says it; `unknown` when not asked. */
  enabled: string;
  /** `active`, `inactive`, `failed`, `running`, `not-loaded`, … */
  active: string;
  pid?: number;
}

export interface SupervisorState {
  kind: SupervisorKind | null;
  available: boolean;
  /** Why there is no usable supervisor, in words the user can act on. */
  unavailableReason?: string;
  service: UnitState;
  /** systemd only: the healthcheck timer. */
  timer?: UnitState;
  observed: string;
}

/** The platform the proxy's install-service writes for: CACHE_FIX_SERVICE_PLATFORM wins, as it does there. */
export function servicePlatform(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  return env.CACHE_FIX_SERVICE_PLATFORM || platform;
}

export function supervisorKind(platform: string): SupervisorKind | null {
  return platform === 'linux' ? 'systemd' : platform === 'darwin' ? 'launchd' : null;
}

export function display(commands: readonly SupervisorCommand[]): string[] {
  return commands.map((c) => commandLine(c.command, c.args));
}

const user = (...args: string[]): SupervisorCommand => ({ command: 'systemctl', args: ['--user', ...args] });

export class Supervisor {
  readonly definitionFile: string;

  constructor(
    readonly kind: SupervisorKind,
    env: NodeJS.ProcessEnv,
    readonly uid: number,
  ) {
    this.definitionFile = proxyServiceFiles(env)[kind];
  }

  private get domain(): string {
    return `gui/${this.uid}`;
  }

  /** Rule 8: start now and at every login. */
  enable(): SupervisorCommand[] {
    if (this.kind === 'systemd') return [user('daemon-reload'), user('enable', '--now', UNIT), user('enable', '--now', TIMER)];
    return [
      { command: 'launchctl', args: ['bootstrap', this.domain, this.definitionFile] },
      { command: 'launchctl', args: ['enable', `${this.domain}/${LABEL}`] },
      { command: 'launchctl', args: ['kickstart', '-k', `${this.domain}/${LABEL}`] },
    ];
  }

  /**
   * Rule 4/8: restart at supervisor level. A changed definition needs systemd to re-read it, and on
   * macOS an unload and load (kickstart alone keeps the old definition).
   */
  restart(definitionChanged: boolean): SupervisorCommand[] {
    if (this.kind === 'systemd') return [...(definitionChanged ? [user('daemon-reload')] : []), user('restart', UNIT)];
    if (definitionChanged) {
      return [
        { command: 'launchctl', args: ['bootout', this.domain, this.definitionFile], optional: true },
        { command: 'launchctl', args: ['bootstrap', this.domain, this.definitionFile] },
        { command: 'launchctl', args: ['enable', `${this.domain}/${LABEL}`] },
      ];
    }
    return [{ command: 'launchctl', args: ['kickstart', '-k', `${this.domain}/${LABEL}`] }];
  }

  /** Stops and disables; the files are removed by the caller, then `afterRemoval` runs. */
  stop(): SupervisorCommand[] {
    if (this.kind === 'systemd') return [{ ...user('disable', '--now', TIMER), optional: true }, { ...user('disable', '--now', UNIT), optional: true }];
    return [{ command: 'launchctl', args: ['bootout', this.domain, this.definitionFile], optional: true }];
  }

  afterRemoval(): SupervisorCommand[] {
    return this.kind === 'systemd' ? [user('daemon-reload')] : [];
  }

  async query(run: CommandRunner, env: NodeJS.ProcessEnv): Promise<SupervisorState> {
    if (this.kind === 'systemd') return querySystemd(run, env);
    return queryLaunchd(run, env, this.domain);
  }
}

const NO_SYSTEMD = /System has not been booted with systemd|Failed to connect to bus|Failed to connect to user scope bus|No medium found|DBUS_SESSION_BUS_ADDRESS|XDG_RUNTIME_DIR/i;

/** Why a supervisor answer means there is none to use, or undefined when it is usable. */
export function unavailableBecause(kind: SupervisorKind, result: RunResult): string | undefined {
  const tool = kind === 'systemd' ? 'systemctl' : 'launchctl';
  if (result.spawnError?.code === 'ENOENT') {
    return kind === 'systemd'
      ? 'systemctl is not installed: there is no systemd here (containers, or WSL without systemd). Run `cache-fix-proxy server` in its own terminal, or enable systemd (WSL: [boot] systemd=true in /etc/wsl.conf, then `wsl --shutdown`).'
      : 'launchctl is not available.';
  }
  if (result.spawnError) return `${tool} could not be started (${result.spawnError.code}).`;
  if (kind === 'systemd' && NO_SYSTEMD.test(result.output)) {
    return `no systemd user manager answers (${result.output.trim().split('\n')[0]}): typical of containers and of WSL without systemd. Run \`cache-fix-proxy server\` in its own terminal, or enable systemd (WSL: [boot] systemd=true in /etc/wsl.conf).`;
  }
  return undefined;
}

async function querySystemd(run: CommandRunner, env: NodeJS.ProcessEnv): Promise<SupervisorState> {
  const ask = async (verb: string, unit: string) => run({ command: 'systemctl', args: ['--user', verb, unit], env, timeoutMs: 10_000 });
  const first = await ask('is-enabled', UNIT);
  const reason = unavailableBecause('systemd', first);
  const unknown: UnitState = { enabled: 'unknown', active: 'unknown' };
  if (reason) return { kind: 'systemd', available: false, unavailableReason: reason, service: unknown, observed: `no user supervisor: ${reason}` };
  const word = (r: RunResult, fallback: string) => r.stdout.trim().split('\n')[0] || (/not.found|No such file/i.test(r.output) ? 'not-found' : fallback);
  const service: UnitState = { enabled: word(first, 'unknown'), active: word(await ask('is-active', UNIT), 'unknown') };
  if (service.active === 'active') {
    const main = await run({ command: 'systemctl', args: ['--user', 'show', '--property', 'MainPID', '--value', UNIT], env, timeoutMs: 10_000 });
    const pid = Number(main.stdout.trim());
    if (Number.isInteger(pid) && pid > 0) service.pid = pid;
  }
  const timer: UnitState = { enabled: word(await ask('is-enabled', TIMER), 'unknown'), active: word(await ask('is-active', TIMER), 'unknown') };
  return { kind: 'systemd', available: true, service, timer, observed: `systemd user units: ${UNIT} ${service.enabled}/${service.active}${service.pid ? ` (pid ${service.pid})` : ''}, ${TIMER} ${timer.enabled}/${timer.active}` };
}

async function queryLaunchd(run: CommandRunner, env: NodeJS.ProcessEnv, domain: string): Promise<SupervisorState> {
  const printed = await run({ command: 'launchctl', args: ['print', `${domain}/${LABEL}`], env, timeoutMs: 10_000 });
  const reason = unavailableBecause('launchd', printed);
  if (reason) return { kind: 'launchd', available: false, unavailableReason: reason, service: { enabled: 'unknown', active: 'unknown' }, observed: `no user supervisor: ${reason}` };
  let service: UnitState;
  if (printed.exitCode === 0) {
    const state = /^\s*state = (\S+)/m.exec(printed.output)?.[1] ?? 'loaded';
    const pid = /^\s*pid = (\d+)/m.exec(printed.output)?.[1];
    service = { enabled: 'unknown', active: state, ...(pid ? { pid: Number(pid) } : {}) };
  } else {
    service = { enabled: 'unknown', active: 'not-loaded' };
  }
  const disabled = await run({ command: 'launchctl', args: ['print-disabled', domain], env, timeoutMs: 10_000 });
  const entry = new RegExp(`"${LABEL.replace(/\./g, '\\.')}" => (\\w+)`).exec(disabled.output)?.[1];
  service.enabled = entry === undefined ? (printed.exitCode === 0 ? 'enabled' : 'unknown') : entry === 'disabled' || entry === 'true' ? 'disabled' : 'enabled';
  return { kind: 'launchd', available: true, service, observed: `launchd agent ${LABEL}: ${service.enabled}/${service.active}${service.pid ? ` (pid ${service.pid})` : ''}` };
}
