// Client config: what to enter in each kind of client (as `gwctl config client` shows it), the base
// addresses and credentials pinned in client settings and shell startup files (as `gwctl diagnose`
// finds them), and the two changes gwctl makes to those files: back up + remove the pinned entries
// (as `gwctl start` does) and put the last backups back (`gwctl start --restore`). Both are shown
// as a dry run first.
import { useCallback, useMemo, useState } from 'react';
import { BackupManifest } from '../../core/client-settings/backup-manifest.ts';
import { cleanPinned, type CleanReport } from '../../core/client-settings/clean-pinned.ts';
import { findPinned, type PinScan } from '../../core/client-settings/find-pinned.ts';
import { restoreBackups, type RestoreReport } from '../../core/client-settings/restore-backups.ts';
import { clientEntries, type ClientEntries } from '../../core/config/client-entries.ts';
import { clientProfile } from '../../core/config/client-profile.ts';
import { startVariables, type StartVariables } from '../../core/launch/start-variables.ts';
import { shellStartupFiles, tildePath } from '../../core/paths.ts';
import { useEngine } from './engine.ts';
import { toProblem, type ProblemInfo } from './problem.ts';
import { useSettings } from './use-settings.ts';

export type ClientChange = { kind: 'clean'; report: CleanReport } | { kind: 'restore'; report: RestoreReport };

export function useClientConfig() {
  const deps = useEngine();
  const { settings, problem } = useSettings();
  const [version, setVersion] = useState(0);
  const tilde = useCallback((path: string) => tildePath(path, deps.env), [deps.env]);

  const view = useMemo((): { entries: ClientEntries | null; entriesProblem: ProblemInfo | null; pins: PinScan | null; profileFiles: string[]; start: StartVariables | null } => {
    void version;
    if (!settings) return { entries: null, entriesProblem: problem, pins: null, profileFiles: [], start: null };
    let entries: ClientEntries | null = null;
    let entriesProblem: ProblemInfo | null = null;
    try {
      entries = clientEntries(settings, { keyRef: 'placeholder' });
    } catch (error) {
      entriesProblem = toProblem(error);
    }
    const start = startVariables(settings, deps.env, deps.cwd);
    if (start.problem) return { entries, entriesProblem: entriesProblem ?? { message: start.problem.message, remedy: start.problem.remedy ?? null }, pins: null, profileFiles: [], start };
    const profile = clientProfile(settings, deps.env, deps.cwd);
    const pins = findPinned({ settingsFiles: profile.settingsFiles, shellFiles: shellStartupFiles(deps.env), vars: { baseUrl: profile.baseUrlVar, token: profile.tokenVar, apiKey: profile.apiKeyVar } });
    return { entries, entriesProblem, pins, profileFiles: profile.settingsFiles, start };
  }, [settings, problem, deps, version]);

  /** Dry run or the real thing; a real change re-reads the files afterwards. */
  const clean = useCallback(
    (dryRun: boolean): ClientChange => {
      const report = cleanPinned({ entries: view.pins?.entries ?? [], dryRun, now: deps.now(), manifest: new BackupManifest(deps.env) });
      if (!dryRun) setVersion((v) => v + 1);
      return { kind: 'clean', report };
    },
    [view.pins, deps],
  );
  const restore = useCallback(
    (dryRun: boolean): ClientChange => {
      const report = restoreBackups({ manifest: new BackupManifest(deps.env), dryRun, now: deps.now() });
      if (!dryRun) setVersion((v) => v + 1);
      return { kind: 'restore', report };
    },
    [deps],
  );
  return { ...view, clean, restore, tilde };
}
