// The environment a running proxy actually has: the cache proxy server listening on the proxy port,
// read from /proc/<pid>/environ. That file is readable only for the same user's processes, so a proxy run by
// another user (or any proxy on a system without /proc) gives undefined, never a guess: the shell
// running gwctl says nothing about what a proxy started elsewhere runs with.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { procfsPortProcesses } from './port-processes.ts';

export interface RunningProxyEnvironment {
  pid: number;
  command: string;
  environment: Record<string, string>;
}

/** Reads the environment of the process listening on a port, or undefined when there is none or it cannot be read. */
export type ProxyEnvironmentReader = (port: number) => RunningProxyEnvironment | undefined;

function parseEnviron(text: string): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const entry of text.split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) environment[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return environment;
}

export function procfsProxyEnvironment(procRoot: string): ProxyEnvironmentReader {
  return (port) => {
    // Only a cache proxy server's environment says what the proxy runs with; any other listener
    // (something else on the port, a test's stand-in) has no CACHE_FIX_PROXY_UPSTREAM to read.
    const servers = procfsPortProcesses(procRoot, port).filter((p) => p.listening && p.proxyServer);
    for (const process of servers) {
      let text: string;
      try {
        text = readFileSync(join(procRoot, String(process.pid), 'environ'), 'utf8');
      } catch {
        continue;
      }
      return { pid: process.pid, command: process.command, environment: parseEnviron(text) };
    }
    return undefined;
  };
}

/** The reader for this machine: /proc where the platform has it, none elsewhere. */
export function systemProxyEnvironment(platform: NodeJS.Platform = process.platform): ProxyEnvironmentReader | undefined {
  return platform === 'linux' ? procfsProxyEnvironment('/proc') : undefined;
}
