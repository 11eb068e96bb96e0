// gwctl's settings as every command sees them (default < file < env < flag), re-read on demand.
// A value that cannot be used is a problem with a remedy, not a crash.
import { useCallback, useMemo, useState } from 'react';
import { resolveSettings, type ResolvedSettings } from '../../core/config/resolve-settings.ts';
import { SettingsFile } from '../../core/config/settings-file.ts';
import { useEngine } from './engine.ts';
import { toProblem, type ProblemInfo } from './problem.ts';

export interface SettingsState {
  settings: ResolvedSettings | null;
  problem: ProblemInfo | null;
  /** The settings file path. */
  file: string;
  reload: () => void;
}

export function useSettings(): SettingsState {
  const deps = useEngine();
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return useMemo(() => {
    const file = new SettingsFile(deps.env);
    try {
      return { settings: resolveSettings({ file, env: deps.env, flags: deps.flags }), problem: null, file: file.path, reload };
    } catch (error) {
      return { settings: null, problem: toProblem(error), file: file.path, reload };
    }
    // version forces a re-read after a change
  }, [deps, version, reload]);
}
