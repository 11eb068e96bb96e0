import type { Env } from '../config/env.ts';

export interface CommandResult {
  status: number | null;
  output: string;
}

/** Everything a command touches outside the process, so tests can run commands in-process. */
export interface CliIo {
  env: Env;
  stdout(text: string): void;
  stderr(text: string): void;
  /** process.platform, or CACHE_FIX_SERVICE_PLATFORM when set (lets tests render both service kinds). */
  platform: string;
  nodePath: string;
  /** The file that runs this CLI (dist/cache-fix-proxy.js when installed). */
  scriptPath: string;
  packageRoot: string;
  uid: number;
  /** Runs systemctl / launchctl. */
  run(command: string, args: string[]): CommandResult;
}
