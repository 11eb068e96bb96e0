import type { CliIo } from '../../../proxy/src/cli/cli-io.ts';

export interface FakeIo extends CliIo {
  out: string[];
  err: string[];
  commands: string[][];
}

/** A CliIo whose systemctl/launchctl calls are recorded, never run. */
export function fakeIo(env: Record<string, string>, platform: string, runStatus = 0): FakeIo {
  const out: string[] = [];
  const err: string[] = [];
  const commands: string[][] = [];
  return {
    env,
    platform,
    out,
    err,
    commands,
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    nodePath: process.execPath,
    scriptPath: '/opt/node prefix/lib/node_modules/cache-fix-proxy/dist/cache-fix-proxy.js',
    packageRoot: '/opt/node prefix/lib/node_modules/cache-fix-proxy',
    uid: 501,
    run(command, args) {
      commands.push([command, ...args]);
      return { status: runStatus, output: runStatus === 0 ? '' : 'Failed to connect to bus' };
    },
  };
}
