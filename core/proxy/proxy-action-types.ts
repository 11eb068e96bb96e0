// The contract between the proxy engine and its callers (CLI and TUI): actions, their options, the
// plan shown before confirming, and the result of carrying one out.
import type { ProxyHealth } from '../client/proxy-client.ts';
import type { ClientRun } from './client-run.ts';
import type { AnyCauseCode } from './proxy-causes.ts';

export type ProxyAction = 'install' | 'upgrade' | 'service-install' | 'service-enable' | 'service-restart' | 'service-uninstall';

export const PROXY_ACTIONS: readonly ProxyAction[] = ['install', 'upgrade', 'service-install', 'service-enable', 'service-restart', 'service-uninstall'];

export interface ProxyActionOptions {
  /** service-install: regenerate an existing definition (the old one is backed up). */
  force?: boolean;
  /** service-install: capture CACHE_FIX_DEBUG=1 (needs confirmDebug). */
  debug?: boolean;
  /** The user confirmed that debug logs may record sensitive context. */
  confirmDebug?: boolean;
  /** Plan and report only: nothing is run or written. */
  dryRun?: boolean;
  /** install/upgrade: a package spec overriding the proxy.package setting (still pinned to 4.2.1). */
  package?: string;
  /** upgrade/service-restart: run the regression step (short session + resume) before and after. */
  regress?: boolean;
  onOutput?: (line: string) => void;
  signal?: AbortSignal;
}

export interface Refusal {
  cause: AnyCauseCode;
  message: string;
  remedy: string;
  commands: string[];
  /** 2 when the request itself is not allowed (another version, unconfirmed debug, bad setting); else 1. */
  exitCode: 1 | 2;
}

export interface BodyAlteringNotice {
  reasons: string[];
  /** The regression reminder: a short session and a resume run, before and after. */
  reminder: string;
  commands: string[];
}

export interface PlannedStepView {
  kind: 'run' | 'backup' | 'remove' | 'verify-version' | 'health' | 'remember' | 'regress';
  /** The command line, or what gwctl does itself. */
  shown: string;
  purpose: string;
}

export interface PlannedChange {
  schemaVersion: 1;
  action: ProxyAction;
  refused: Refusal | null;
  /** The commands that would run, in order (npm, cache-fix-proxy, systemctl/launchctl). */
  commands: string[];
  steps: PlannedStepView[];
  /** Files that would be backed up before the change. */
  backups: string[];
  filesWritten: string[];
  filesRemoved: string[];
  /** CACHE_FIX_* values given to install-service (null = removed from its environment). */
  environment: Record<string, string | null>;
  bodyAltering: BodyAlteringNotice | null;
  warnings: string[];
  notes: string[];
}

export interface RegressionRun {
  phase: 'before' | 'after';
  ok: boolean;
  runs: ClientRun[];
}

export interface OperationResult {
  ok: boolean;
  action: ProxyAction;
  steps: Array<{ command: string; exitCode: number | null; output: string }>;
  summary: string;
  cause?: AnyCauseCode;
  remedy?: string;
  commands?: string[];
  /** What the CLI exits with: 0 ok, 1 failed or refused, 2 refused as not allowed, 130 interrupted. */
  exitCode: 0 | 1 | 2 | 130;
  dryRun: boolean;
  plan: PlannedChange;
  backups: string[];
  installed?: { name: string; version: string; packageDir: string } | null;
  health?: ProxyHealth;
  regression: RegressionRun[];
  notes: string[];
}
