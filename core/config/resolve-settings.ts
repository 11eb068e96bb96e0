// Layered settings: default (or the client profile's default) < file < env < flag, keeping where
// each value came from. client.profile is resolved first, since it supplies other defaults.
import { CLIENT_PROFILES, type ProfileName } from './client-profiles.ts';
import { SETTING_DEFINITIONS, type SettingDefinition, type SettingKey, type SettingValue } from './setting-definitions.ts';
import type { SettingsFile } from './settings-file.ts';

export type SettingSource = 'default' | 'profile' | 'file' | 'env' | 'flag';

export interface ResolvedSetting {
  key: SettingKey;
  value: SettingValue | null;
  source: SettingSource;
  /** The file path, variable name or flag the value came from; the profile name for `profile`; null for a default. */
  origin: string | null;
}

export type ResolvedSettings = Record<SettingKey, ResolvedSetting>;

export interface SettingLayers {
  file: Pick<SettingsFile, 'get' | 'path'>;
  env: NodeJS.ProcessEnv;
  /** Raw flag values by setting key (undefined = not given). */
  flags?: Partial<Record<SettingKey, unknown>>;
}

function resolveOne(def: SettingDefinition, layers: SettingLayers, base: ResolvedSetting): ResolvedSetting {
  let resolved = base;
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
  return resolved;
}

/** Throws SettingError naming the layer when a value is invalid. */
export function resolveSettings(layers: SettingLayers): ResolvedSettings {
  const out = {} as ResolvedSettings;
  const profileDef = SETTING_DEFINITIONS.find((d) => d.key === 'client.profile')!;
  const profileSetting = resolveOne(profileDef, layers, { key: profileDef.key, value: profileDef.default, source: 'default', origin: null });
  const profile = CLIENT_PROFILES[profileSetting.value as ProfileName];
  for (const def of SETTING_DEFINITIONS) {
    if (def === profileDef) {
      out[def.key] = profileSetting;
      continue;
    }
    const base: ResolvedSetting = def.fromProfile
      ? { key: def.key, value: def.fromProfile(profile), source: 'profile', origin: profile.name }
      : { key: def.key, value: def.default, source: 'default', origin: null };
    out[def.key] = resolveOne(def, layers, base);
  }
  return out;
}
