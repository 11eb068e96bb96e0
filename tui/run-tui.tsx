// Runs the TUI on the terminal: the alternate screen, the app, and the handover to a client (the
// app is unmounted, the terminal restored and given to the client; afterwards the app comes back on
// the Start screen, or gwctl exits with the client's code). Returns gwctl's exit code.
/** @jsxRuntime automatic @jsxImportSource react */
import { launchIsolated } from '../core/launch/launch-isolated.ts';
import { render, type RenderOptions } from 'ink';
import type { LaunchRequest } from '../core/launch/launch-client.ts';
import { App } from './app.tsx';
import type { TuiDeps } from './hooks/engine.ts';
import type { AppExit, ResumeState } from './hooks/session.ts';

const ENTER_ALTERNATE_SCREEN = '\u001b[?1049h\u001b[H';
const LEAVE_ALTERNATE_SCREEN = '\u001b[?1049l';

export interface RunTuiOptions {
  deps: TuiDeps;
  /** Starts the client with the terminal inherited and resolves with its exit code. */
  launch: (request: LaunchRequest) => Promise<number>;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
  /** Extra Ink options (tests render in debug mode, one full frame per write). */
  ink?: Pick<RenderOptions, 'debug'>;
}

const SIGNAL_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGTERM: 143, SIGHUP: 129 };

/** One mounting of the app, until it asks to leave (or a signal ends it). */
async function session(options: RunTuiOptions, resume: ResumeState | undefined): Promise<AppExit> {
  const stdout = options.stdout ?? process.stdout;
  let result: AppExit = { kind: 'quit', code: 0 };
  stdout.write(ENTER_ALTERNATE_SCREEN);
  const instance = render(<App deps={options.deps} resume={resume} onExit={(r) => (result = r)} />, {
    stdin: options.stdin ?? process.stdin,
    stdout,
    stderr: options.stderr ?? process.stderr,
    exitOnCtrlC: false,
    patchConsole: true,
    ...options.ink,
  });
  const onSignal = (signal: NodeJS.Signals) => {
    result = { kind: 'quit', code: SIGNAL_CODES[signal] ?? 1 };
    instance.unmount();
  };
  const signals = Object.keys(SIGNAL_CODES) as NodeJS.Signals[];
  for (const s of signals) process.on(s, onSignal);
  try {
    await instance.waitUntilExit();
  } finally {
    for (const s of signals) process.off(s, onSignal);
    instance.cleanup();
    stdout.write(LEAVE_ALTERNATE_SCREEN);
  }
  return result;
}

export async function runTui(options: RunTuiOptions): Promise<number> {
  const stderr = options.stderr ?? process.stderr;
  let resume: ResumeState | undefined;
  for (;;) {
    const result = await session(options, resume);
    if (result.kind === 'quit') return result.code;
    const { handover } = result;
    // Ink has let go of the keyboard, but a TTY stream keeps reading until it is paused; paused, the
    // keys typed from now on reach the client instead of this process. Ink resumes it when it is
    // mounted again.
    (options.stdin ?? process.stdin).pause();
    stderr.write(`${handover.banner.join('\n')}\n`);
    let exitCode: number;
    try {
      exitCode = await launchIsolated(handover.request, options.launch);
    } catch (error) {
      stderr.write(`gwctl: could not run ${handover.command}: ${(error as Error)?.message ?? error}\n`);
      exitCode = 127;
    }
    if (handover.afterClient === 'exit') return exitCode;
    // A client that failed leads straight to a diagnosis of what it saw; one stopped by the user
    // (SIGHUP, SIGINT, SIGTERM) or that succeeded goes back to the Start screen.
    const failed = exitCode !== 0 && ![129, 130, 143].includes(exitCode);
    resume = { screen: failed ? 'diagnose' : 'start', lastClient: { command: handover.command, exitCode } };
  }
}
