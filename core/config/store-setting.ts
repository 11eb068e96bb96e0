// Storing and removing one of gwctl's settings in its settings file: validated by the setting's own
// parser, owner-only, and never a key (keys live in a password manager or the shell).
import { maskKey } from '../redact.ts';
import { SETTING_DEFINITIONS, type SettingKey, type SettingValue } from './setting-definitions.ts';
import { SettingError } from './setting-error.ts';
import { SettingsFile } from './settings-file.ts';

export interface StoredSetting {
  key: SettingKey;
  /** Null after a removal. */
  value: SettingValue | null;
  file: string;
  /** The environment variable that is set here and overrides the file, if any. */
  overriddenBy: string | null;
}

const KEY_LIKE = /\bsk-[A-Za-z0-9_-]{8,}/g;

/** Values that look like an API key of this service are refused wherever settings are stored. */
export function looksLikeKey(raw: string): boolean {
  return new RegExp(KEY_LIKE.source).test(raw);
}

/** The text with anything key-like masked (`sk-…a1b2`), for showing what a user typed. */
export function maskKeysIn(raw: string): string {
  return raw.replace(KEY_LIKE, (key) => maskKey(key));
}

function definition(key: string) {
  const def = SETTING_DEFINITIONS.find((d) => d.key === key);
  if (!def) throw new SettingError(`Unknown setting "${key}".`, `Settings: ${SETTING_DEFINITIONS.map((d) => d.key).join(', ')}.`);
  return def;
}

/** Validates and stores a value; throws SettingError (unknown key, a key-like value, an invalid value). */
export function storeSetting(env: NodeJS.ProcessEnv, key: string, raw: string): StoredSetting {
  const def = definition(key);
  if (looksLikeKey(raw)) {
    throw new SettingError('That value looks like an API key; gwctl does not store keys.', 'Keep the key in a password manager and export it for the shell that needs it, e.g. `read -rs MSGAPI_AUTH_TOKEN && export MSGAPI_AUTH_TOKEN`.');
  }
  const value = def.parse(raw, def.key);
  const file = new SettingsFile(env);
  file.set(def.key, value);
  return { key: def.key, value, file: file.path, overriddenBy: env[def.env] ? def.env : null };
}

/** Removes a stored value so the default (or env/flag) applies again. */
export function removeSetting(env: NodeJS.ProcessEnv, key: string): StoredSetting {
  const def = definition(key);
  const file = new SettingsFile(env);
  file.unset(def.key);
  return { key: def.key, value: null, file: file.path, overriddenBy: env[def.env] ? def.env : null };
}
