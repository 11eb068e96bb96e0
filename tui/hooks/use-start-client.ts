// Start client: the same plan as `gwctl start` (core/launch/plan-start.ts): the route and why, the
// client and its variables (credentials masked), warnings or a refusal, and which pinned settings
// would be backed up and removed (a dry run of core/client-settings/clean-pinned.ts). Going ahead
// plans again (the proxy may have changed meanwhile), cleans for real and hands the terminal over.
import { useCallback, useEffect, useState } from 'react';
import { PROFILE_NAMES, type ProfileName } from '../../core/config/client-profiles.ts';
import { resolveSettings } from '../../core/config/resolve-settings.ts';
import { SettingsFile } from '../../core/config/settings-file.ts';
import { BackupManifest } from '../../core/client-settings/backup-manifest.ts';
import { cleanPinned, type CleanReport } from '../../core/client-settings/clean-pinned.ts';
import type { LaunchRequest } from '../../core/launch/launch-client.ts';
import { planStart, type StartPlan } from '../../core/launch/plan-start.ts';

export { modelSummary } from '../../core/launch/model-choice.ts';
import { tildePath } from '../../core/paths.ts';
import { useEngine } from './engine.ts';
import { ProblemError, toProblem, type ProblemInfo } from './problem.ts';
import { useSession } from './session.ts';
import { useSettings } from './use-settings.ts';
import { useTask } from './use-task.ts';

export interface StartPreview {
  plan: StartPlan;
  launch: LaunchRequest;
  /** What a start would back up and remove (dry run); null when the start is refused. */
  changes: CleanReport | null;
  afterClient: 'return' | 'exit';
  /** Set when a second look found a different situation than the one the user reviewed. */
  changedSinceReview: boolean;
}

function sameSituation(a: StartPlan, b: StartPlan): boolean {
  return (
    a.route.kind === b.route.kind &&
    a.route.baseUrl === b.route.baseUrl &&
    a.model.id === b.model.id &&
    Boolean(a.refused) === Boolean(b.refused) &&
    JSON.stringify(a.pinned.entries) === JSON.stringify(b.pinned.entries)
  );
}

export function describeEntry(entry: { fileKind: 'settings' | 'shell'; variable: string; shown: string; line?: number }): string {
  return entry.fileKind === 'settings' ? `env.${entry.variable}=${entry.shown}` : `line ${entry.line} ${entry.variable}=${entry.shown}`;
}

export function useStartClient() {
  const deps = useEngine();
  const session = useSession();
  const { settings, problem } = useSettings();
  const [goProblem, setGoProblem] = useState<ProblemInfo | null>(null);
  const [override, setOverride] = useState<StartPreview | null>(null);
  /** The client chosen on this screen (c cycles through the profiles); null = the configured one. */
  const [chosen, setChosen] = useState<ProfileName | null>(null);
  const tilde = useCallback((path: string) => tildePath(path, deps.env), [deps.env]);

  const look = useCallback(async (): Promise<StartPreview> => {
    if (!settings) throw new ProblemError(problem);
    const effective = chosen && chosen !== settings['client.profile'].value ? resolveSettings({ file: new SettingsFile(deps.env), env: deps.env, flags: { ...deps.flags, 'client.profile': chosen } }) : settings;
    const { plan, launch } = await planStart({ settings: effective, env: deps.env, cwd: deps.cwd, clientArgs: [], dryRun: true, http: deps.http, procVersion: deps.procVersion, probeTimeoutMs: deps.probeTimeoutMs });
    const changes = plan.refused ? null : cleanPinned({ entries: plan.pinned.entries, dryRun: true, now: deps.now(), manifest: new BackupManifest(deps.env) });
    return { plan, launch, changes, afterClient: settings['tui.afterClient'].value === 'exit' ? 'exit' : 'return', changedSinceReview: false };
  }, [deps, settings, problem, chosen]);

  const preview = useTask(look);
  const { run: runPreview } = preview;
  // Again whenever another client is chosen (run always calls the latest look).
  useEffect(() => {
    void runPreview();
  }, [runPreview, chosen]);

  const reviewed = override ?? (preview.state.phase === 'done' ? preview.state.value : null);

  const refresh = useCallback(() => {
    setOverride(null);
    setGoProblem(null);
    void runPreview();
  }, [runPreview]);

  /** Plans again, and if nothing changed, cleans the pinned settings and hands the terminal over. */
  const go = useCallback(async () => {
    if (!reviewed || reviewed.plan.refused) return;
    setGoProblem(null);
    try {
      const fresh = await look();
      if (fresh.plan.refused || !sameSituation(reviewed.plan, fresh.plan)) {
        setOverride({ ...fresh, changedSinceReview: true });
        return;
      }
      const changes = cleanPinned({ entries: fresh.plan.pinned.entries, dryRun: false, now: deps.now(), manifest: new BackupManifest(deps.env) });
      const { plan } = fresh;
      const target = plan.route.baseUrl ?? "the client's default upstream";
      const banner = [`gwctl: ${plan.route.kind} route → ${target}; starting ${[plan.client.path, ...plan.client.args].join(' ')}`, `  why       ${plan.route.reason}`];
      if (plan.model.id) banner.push(`  model     ${plan.model.id} (${plan.model.reason})`);
      for (const file of changes.changed) banner.push(`  settings  ${tilde(file.file)}: backed up to ${tilde(file.backup ?? '?')}; removed ${file.removed.map(describeEntry).join(', ')}`);
      if (changes.changed.length > 0) banner.push('  Undo with: gwctl start --restore');
      banner.push(fresh.afterClient === 'exit' ? "  gwctl exits with the client's exit code." : '  gwctl comes back when the client exits.');
      session.handover({ request: fresh.launch, command: plan.client.command, banner, afterClient: fresh.afterClient });
    } catch (error) {
      setGoProblem(toProblem(error));
    }
  }, [reviewed, look, deps, session, tilde]);

  /** The next client profile (custom only when a client command is configured for it). */
  const nextClient = useCallback(() => {
    const current = chosen ?? ((settings?.['client.profile'].value as ProfileName | undefined) ?? 'claude');
    const names = PROFILE_NAMES.filter((n) => n !== 'custom' || current === 'custom');
    setOverride(null);
    setGoProblem(null);
    setChosen(names[(names.indexOf(current) + 1) % names.length]!);
  }, [chosen, settings]);

  return { preview: preview.state, reviewed, refresh, go, goProblem, tilde, nextClient };
}
