// Proxy: its status (core/proxy/proxy-status.ts through the proxy operations) and the actions that
// change files or services: install or upgrade pinned to 4.2.1, install/enable/restart/uninstall the
// service. An action is planned first (what will change, shown for confirmation), then run with
// its output streamed line by line; it can be cancelled while it runs.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useEngine } from './engine.ts';
import { toProblem, type ProblemInfo } from './problem.ts';
import { describePlan, type PlanView } from './proxy-plan-view.ts';
import { describeProxyStatus, type ProxyStatusView } from './proxy-status-view.ts';
import type { OperationResult, ProxyAction } from './proxy-port.ts';
import { UnavailableError } from './use-acceptance.ts';
import { useTask } from './use-task.ts';

export const PROXY_ACTIONS: ReadonlyArray<{ action: ProxyAction; label: string; command: string }> = [
  { action: 'install', label: 'Install 4.2.1', command: 'gwctl proxy install' },
  { action: 'upgrade', label: 'Upgrade to 4.2.1', command: 'gwctl proxy upgrade' },
  { action: 'service-install', label: 'Install service', command: 'gwctl proxy service install' },
  { action: 'service-enable', label: 'Enable service', command: 'gwctl proxy service enable' },
  { action: 'service-restart', label: 'Restart service', command: 'gwctl proxy service restart' },
  { action: 'service-uninstall', label: 'Uninstall service', command: 'gwctl proxy service uninstall' },
];

export interface ActionOptions {
  force: boolean;
  debug: boolean;
  /** The regression run (short session + resume) before and after the change. */
  regress: boolean;
}

export const NO_OPTIONS: ActionOptions = { force: false, debug: false, regress: false };

/** The options each action takes (as its command's flags). */
export function optionsOf(action: ProxyAction): Array<keyof ActionOptions> {
  if (action === 'service-install') return ['force', 'debug', 'regress'];
  if (action === 'upgrade' || action === 'service-restart') return ['regress'];
  return [];
}

export type ActionState =
  | { phase: 'menu' }
  | { phase: 'planning'; action: ProxyAction; options: ActionOptions }
  | { phase: 'confirm'; action: ProxyAction; options: ActionOptions; plan: PlanView }
  | { phase: 'running'; action: ProxyAction; options: ActionOptions; lines: string[]; startedAt: number; cancelling: boolean }
  | { phase: 'done'; action: ProxyAction; options: ActionOptions; lines: string[]; startedAt: number; endedAt: number; result: OperationResult }
  | { phase: 'failed'; action: ProxyAction; options: ActionOptions; lines: string[]; problem: ProblemInfo };

const MAX_LINES = 5000;

export function commandFor(action: ProxyAction, options: ActionOptions): string {
  const base = PROXY_ACTIONS.find((a) => a.action === action)!.command;
  const allowed = optionsOf(action);
  const on = (name: keyof ActionOptions) => allowed.includes(name) && options[name];
  return `${base}${on('force') ? ' --force' : ''}${on('debug') ? ' --debug --confirm-debug' : ''}${on('regress') ? ' --regress' : ''}`;
}

export function useProxy() {
  const deps = useEngine();
  const status = useTask(async (): Promise<ProxyStatusView> => {
    if (!deps.proxy) throw new UnavailableError();
    return describeProxyStatus(await deps.proxy.status(), deps.env);
  });
  const [action, setAction] = useState<ActionState>({ phase: 'menu' });
  const controller = useRef<AbortController | null>(null);
  const generation = useRef(0);
  const { run: runStatus } = status;
  useEffect(() => {
    void runStatus();
  }, [runStatus]);
  useEffect(
    () => () => {
      generation.current++;
      controller.current?.abort();
    },
    [],
  );

  const plan = useCallback(
    async (which: ProxyAction, options: ActionOptions) => {
      const mine = ++generation.current;
      setAction({ phase: 'planning', action: which, options });
      try {
        if (!deps.proxy) throw new UnavailableError();
        const planned = await deps.proxy.plan(which, { force: options.force, debug: options.debug, confirmDebug: options.debug, regress: options.regress });
        if (mine === generation.current) setAction({ phase: 'confirm', action: which, options, plan: describePlan(planned, deps.env) });
      } catch (error) {
        if (mine === generation.current) setAction({ phase: 'failed', action: which, options, lines: [], problem: toProblem(error) });
      }
    },
    [deps.proxy, deps.env],
  );

  const confirm = useCallback(async () => {
    if (action.phase !== 'confirm' || action.plan.refused || !deps.proxy) return;
    const { action: which, options } = action;
    const mine = ++generation.current;
    const abort = new AbortController();
    controller.current = abort;
    const startedAt = Date.now();
    const lines: string[] = [];
    setAction({ phase: 'running', action: which, options, lines: [], startedAt, cancelling: false });
    const onOutput = (line: string) => {
      if (mine !== generation.current) return;
      lines.push(...line.replace(/\r?\n$/, '').split(/\r?\n/));
      if (lines.length > MAX_LINES) lines.splice(0, lines.length - MAX_LINES);
      const snapshot = [...lines];
      setAction((s) => (s.phase === 'running' ? { ...s, lines: snapshot } : s));
    };
    try {
      const result = await deps.proxy.run(which, { force: options.force, debug: options.debug, confirmDebug: options.debug, regress: options.regress, onOutput, signal: abort.signal });
      if (mine === generation.current) setAction({ phase: 'done', action: which, options, lines: [...lines], startedAt, endedAt: Date.now(), result });
    } catch (error) {
      if (mine === generation.current) setAction({ phase: 'failed', action: which, options, lines: [...lines], problem: toProblem(error) });
    }
    if (mine === generation.current) void runStatus();
  }, [action, deps.proxy, runStatus]);

  const cancel = useCallback(() => {
    controller.current?.abort();
    setAction((s) => (s.phase === 'running' ? { ...s, cancelling: true } : s));
  }, []);

  const toMenu = useCallback(() => {
    generation.current++;
    setAction({ phase: 'menu' });
  }, []);

  return { status: status.state, refresh: runStatus, action, plan, confirm, cancel, toMenu };
}
