// Rule 9: under WSL, client, runtime, variables and proxy must all live in WSL. A client that
// resolves to a Windows path (/mnt/c/…, or an .exe/.cmd shim) reads neither the WSL variables nor
// reaches the WSL proxy on 127.0.0.1 reliably.
import { readFileSync } from 'node:fs';

export interface ExecutionPlane {
  wsl: boolean;
  distro?: string;
  /** The resolved client path, when found. */
  clientPath?: string;
  windowsClient: boolean;
  /** WSL and a Windows client: the proxy route must not be used. */
  mismatch: boolean;
  observed: string;
}

function readProcVersion(): string {
  try {
    return readFileSync('/proc/version', 'utf8');
  } catch {
    return '';
  }
}

function isWindowsPath(path: string): boolean {
  return /^\/mnt\/[a-z]\//i.test(path) || /\.(exe|cmd|bat|ps1)$/i.test(path);
}

export function executionPlane(env: NodeJS.ProcessEnv, clientPath: string | undefined, procVersion: () => string = readProcVersion): ExecutionPlane {
  const wsl = Boolean(env.WSL_DISTRO_NAME || env.WSL_INTEROP) || /microsoft|wsl/i.test(procVersion());
  const distro = env.WSL_DISTRO_NAME || undefined;
  const windowsClient = clientPath !== undefined && isWindowsPath(clientPath);
  const where = wsl ? `WSL${distro ? ` (${distro})` : ''}` : 'not WSL';
  const client = clientPath ? `client at ${clientPath}` : 'client not found on PATH';
  const mismatch = wsl && windowsClient;
  const observed = mismatch
    ? `${where}, but the ${client} is a Windows program: it does not read this WSL environment or reach the WSL proxy`
    : `${where}; ${client}${wsl && clientPath ? ' (a WSL-native path)' : ''}`;
  return { wsl, distro, clientPath, windowsClient, mismatch, observed };
}
