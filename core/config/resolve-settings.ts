// Layered settings: default < file < env < flag, keeping where each value came from.
import { SETTING_DEFINITIONS, type SettingKey, type SettingValue } from './setting-definitions.ts';
import type { SettingsFile } from './settings-file.ts';

export type SettingSource = 'default' | 'file' | 'env' | 'flag';

export interface ResolvedSetting {
  key: SettingKey;
  value: SettingValue | null;
  source: SettingSource;
  /** The file path, variable name or flag the value came from; null for a default. */
  origin: string | null;
}

export type ResolvedSettings = Record<SettingKey, ResolvedSetting>;

export interface SettingLayers {
  file: Pick<SettingsFile, 'get' | 'path'>;
  env: NodeJS.ProcessEnv;
  /** Raw flag values by setting key (undefined = not given). */
  flags?: Partial<Record<SettingKey, unknown>>;
}

/** Throws SettingError naming the layer when a value is invalid. */
export function resolveSettings(layers: SettingLayers): ResolvedSettings {
  const out = {} as ResolvedSettings;
  for (const def of SETTING_DEFINITIONS) {
    let resolved: ResolvedSetting = { key: def.key, value: def.default, source: 'default', origin: null };
    const stored = layers.file.get(def.key);
    if (stored !== undefined && stored !== null) {
      resolved = { key: def.key, value: def.parse(stored, `${def.key} in ${layers.file.path}`), source: 'file', origin: layers.file.path };
    }
    const fromEnv = layers.env[def.env];
    if (fromEnv !== undefined && fromEnv !== '') {
      resolved = { key: def.key, value: def.parse(fromEnv, `${def.env} (environment)`), source: 'env', origin: def.env };
    }
    const fromFlag = layers.flags?.[def.key];
    if (fromFlag !== undefined) {
      resolved = { key: def.key, value: def.parse(fromFlag, `--${def.flag}`), source: 'flag', origin: `--${def.flag}` };
    }
    out[def.key] = resolved;
  }
  return out;
}
