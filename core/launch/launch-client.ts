// Runs the client with execa, terminal inherited, and returns its exit code. SIGTERM and SIGHUP sent
// to gwctl are passed on. Ctrl-C at a terminal already reaches the client (same process group), so
// SIGINT is only passed on when gwctl is not attached to a terminal (e.g. `kill -INT`), never twice.
import { constants } from 'node:os';
import type { IsolationKind } from '../config/client-profiles.ts';
import type { IsolationSpec } from './isolation/isolation-spec.ts';

export interface LaunchRequest {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The launch's own configuration, written just before the client starts and removed after it exits. */
  isolation?: { kind: IsolationKind; spec: IsolationSpec };
}

export interface SignalSource {
  on(signal: NodeJS.Signals, handler: () => void): void;
  off(signal: NodeJS.Signals, handler: () => void): void;
}

export interface LaunchDeps {
  signals?: SignalSource;
  /** Whether Ctrl-C from a terminal reaches the client by itself. */
  attachedToTerminal?: boolean;
}

export async function launchClient(request: LaunchRequest, deps: LaunchDeps = {}): Promise<number> {
  const signals = deps.signals ?? process;
  const attached = deps.attachedToTerminal ?? Boolean(process.stdin.isTTY);
  // Loaded here so that only a command that starts a client pays for execa.
  const { execa } = await import('execa');
  const child = execa(request.file, request.args, { stdio: 'inherit', env: request.env, extendEnv: false, cwd: request.cwd, reject: false, windowsHide: false });
  const forward = (signal: NodeJS.Signals) => () => {
    if (signal === 'SIGINT' && attached) return;
    child.kill(signal);
  };
  const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((signal) => [signal, forward(signal)] as const);
  for (const [signal, handler] of handlers) signals.on(signal, handler);
  try {
    const result = await child;
    if (typeof result.exitCode === 'number') return result.exitCode;
    if (result.signal) return 128 + (constants.signals[result.signal] ?? 1);
    throw new Error(`could not run ${request.file}: ${result.message ?? 'unknown error'}`);
  } finally {
    for (const [signal, handler] of handlers) signals.off(signal, handler);
  }
}
