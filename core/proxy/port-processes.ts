// Rule 6: how many processes listen on the proxy port, and how many proxy servers compete for it
// (started for that port, listening or not, e.g. a second unmanaged copy failing with EADDRINUSE).
// Linux reads /proc (sockets by inode, command lines, CACHE_FIX_PROXY_PORT); macOS asks lsof and ps.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandRunner } from './command-runner.ts';

export interface PortProcess {
  pid: number;
  command: string;
  listening: boolean;
  /** Runs a cache proxy server meant for this port. */
  proxyServer: boolean;
}

export interface PortReport {
  port: number;
  method: 'procfs' | 'lsof' | 'unavailable';
  processes: PortProcess[];
  /** More than one process listens on or competes for the port. */
  contested: boolean;
  observed: string;
}

export interface PortDeps {
  platform: NodeJS.Platform;
  procRoot?: string;
  run: CommandRunner;
  env: NodeJS.ProcessEnv;
}

const PROXY_SERVER = /cache-fix-proxy(\.js)?\b.*\bserver\b|proxy\/server\.mjs/;

function listeningInodes(procRoot: string, port: number): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = readFileSync(join(procRoot, 'net', table), 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) continue;
      if (cols[3] === '0A' && cols[1]!.endsWith(`:${hexPort}`)) inodes.add(cols[9]!);
    }
  }
  return inodes;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Linux: the processes listening on or meant for the port, read from /proc (synchronous). */
export function procfsPortProcesses(procRoot: string, port: number): PortProcess[] {
  const inodes = listeningInodes(procRoot, port);
  const found: PortProcess[] = [];
  let pids: string[];
  try {
    pids = readdirSync(procRoot).filter((n) => /^\d+$/.test(n));
  } catch {
    return found;
  }
  for (const pid of pids) {
    const cmdline = readText(join(procRoot, pid, 'cmdline'));
    if (cmdline === undefined) continue;
    const command = cmdline.split('\0').filter(Boolean).join(' ');
    let listening = false;
    if (inodes.size > 0) {
      try {
        for (const fd of readdirSync(join(procRoot, pid, 'fd'))) {
          const link = readlinkSync(join(procRoot, pid, 'fd', fd));
          const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
          if (inode && inodes.has(inode)) {
            listening = true;
            break;
          }
        }
      } catch {
        // Another user's process, or it just exited.
      }
    }
    let proxyServer = false;
    if (PROXY_SERVER.test(command)) {
      const environ = readText(join(procRoot, pid, 'environ')) ?? '';
      const configured = /(?:^|\0)CACHE_FIX_PROXY_PORT=(\d+)/.exec(environ)?.[1];
      proxyServer = Number(configured ?? 9801) === port;
    }
    if (listening || proxyServer) found.push({ pid: Number(pid), command: command.slice(0, 200), listening, proxyServer });
  }
  return found;
}

async function lsof(deps: PortDeps, port: number): Promise<PortProcess[] | undefined> {
  const result = await deps.run({ command: 'lsof', args: ['-nP', `-iTCP:${port}`, '-sTCP:LISTEN', '-Fpc'], env: deps.env, timeoutMs: 10_000 });
  if (result.spawnError) return undefined;
  const found = new Map<number, PortProcess>();
  let pid = 0;
  for (const line of result.stdout.split('\n')) {
    if (line.startsWith('p')) pid = Number(line.slice(1));
    else if (line.startsWith('c') && pid) found.set(pid, { pid, command: line.slice(1), listening: true, proxyServer: false });
  }
  const ps = await deps.run({ command: 'ps', args: ['-Ao', 'pid=,command='], env: deps.env, timeoutMs: 10_000 });
  for (const line of ps.stdout.split('\n')) {
    const match = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (!match || !PROXY_SERVER.test(match[2]!)) continue;
    const id = Number(match[1]);
    const known = found.get(id);
    if (known) known.proxyServer = true;
    else if (port === 9801) found.set(id, { pid: id, command: match[2]!.slice(0, 200), listening: false, proxyServer: true });
  }
  return [...found.values()];
}

export async function portProcesses(port: number, deps: PortDeps): Promise<PortReport> {
  let processes: PortProcess[] | undefined;
  let method: PortReport['method'] = 'unavailable';
  if (deps.platform === 'linux') {
    processes = procfsPortProcesses(deps.procRoot ?? '/proc', port);
    method = 'procfs';
  } else if (deps.platform === 'darwin') {
    processes = await lsof(deps, port);
    method = processes ? 'lsof' : 'unavailable';
  }
  if (!processes) return { port, method, processes: [], contested: false, observed: `cannot list the processes on port ${port} here` };
  processes.sort((a, b) => a.pid - b.pid);
  const listeners = processes.filter((p) => p.listening).length;
  const contested = processes.length > 1;
  const list = processes.map((p) => `${p.pid} ${p.listening ? 'listening' : 'not listening'}${p.proxyServer ? ', proxy server' : ''} (${p.command.slice(0, 80)})`).join('; ');
  const observed =
    processes.length === 0
      ? `nothing listens on 127.0.0.1:${port} and no proxy server for it runs`
      : `${processes.length} process${processes.length === 1 ? '' : 'es'} on port ${port} (${listeners} listening): ${list}`;
  return { port, method, processes, contested, observed };
}
