// Settings: every gwctl setting with its value and where it came from (as `gwctl config list`), and
// storing or removing a value in the settings file (as `gwctl config set/unset`), validated and
// never a key.
import { useCallback } from 'react';
import { SETTING_DEFINITIONS, type SettingDefinition } from '../../core/config/setting-definitions.ts';
import { SettingsFile } from '../../core/config/settings-file.ts';
import { looksLikeKey, maskKeysIn, removeSetting, storeSetting, type StoredSetting } from '../../core/config/store-setting.ts';
import { tildePath } from '../../core/paths.ts';
import { useEngine } from './engine.ts';
import { toProblem, type ProblemInfo } from './problem.ts';
import { settingSource } from './use-home-status.ts';
import { useSettings } from './use-settings.ts';

export interface SettingRow {
  definition: SettingDefinition;
  value: string;
  source: string;
  /** The value stored in the file, as text for editing; '' when none. */
  stored: string;
}

export type SaveOutcome = { ok: true; stored: StoredSetting } | { ok: false; problem: ProblemInfo };

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return Array.isArray(value) ? JSON.stringify(value) : String(value);
}

export function useSettingsEditor() {
  const deps = useEngine();
  const { settings, problem, file, reload } = useSettings();
  const stored = new SettingsFile(deps.env);
  const rows: SettingRow[] = SETTING_DEFINITIONS.map((definition) => {
    const setting = settings?.[definition.key];
    return {
      definition,
      value: setting ? (setting.value === null ? '(not set)' : Array.isArray(setting.value) ? setting.value.join(', ') : setting.value) : '?',
      source: setting ? settingSource(setting, deps.env) : '?',
      stored: (() => {
        try {
          return text(stored.get(definition.key));
        } catch {
          return '';
        }
      })(),
    };
  });
  const save = useCallback(
    (key: string, raw: string): SaveOutcome => {
      try {
        const result = storeSetting(deps.env, key, raw);
        reload();
        return { ok: true, stored: result };
      } catch (error) {
        return { ok: false, problem: toProblem(error) };
      }
    },
    [deps.env, reload],
  );
  const remove = useCallback(
    (key: string): SaveOutcome => {
      try {
        const result = removeSetting(deps.env, key);
        reload();
        return { ok: true, stored: result };
      } catch (error) {
        return { ok: false, problem: toProblem(error) };
      }
    },
    [deps.env, reload],
  );
  /** What a typed value may show: keys masked, and whether it would be refused as one. */
  const shown = useCallback((raw: string) => ({ text: maskKeysIn(raw), keyLike: looksLikeKey(raw) }), []);
  return { rows, problem, file: tildePath(file, deps.env), save, remove, shown };
}
