import { readFileSync } from 'node:fs';
import { errorMessage } from '../errors.ts';
import { isObject } from '../util/json-value.ts';

export interface ExtensionSetting {
  enabled?: boolean;
  order?: number;
}

export type ExtensionSettings = Map<string, ExtensionSetting>;

/**
 * extensions.json is keyed by extension name: `{"<name>": {"enabled": bool, "order": number}}`.
 * A missing file means defaults. An unreadable one also means defaults (as in 4.2.1), but says so
 * on stderr instead of silently ignoring the user's edit.
 */
export function readExtensionSettings(path: string, warn: (line: string) => void): ExtensionSettings {
  const settings: ExtensionSettings = new Map();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') warn(`[extensions] cannot read ${path}: ${errorMessage(error)}; using defaults`);
    return settings;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    warn(`[extensions] ${path} is not valid JSON (${errorMessage(error)}); using defaults`);
    return settings;
  }
  if (!isObject(parsed)) {
    warn(`[extensions] ${path} must be an object keyed by extension name; using defaults`);
    return settings;
  }
  for (const [name, value] of Object.entries(parsed)) {
    if (!isObject(value)) continue;
    const setting: ExtensionSetting = {};
    if (typeof value.enabled === 'boolean') setting.enabled = value.enabled;
    if (typeof value.order === 'number' && Number.isFinite(value.order)) setting.order = value.order;
    settings.set(name, setting);
  }
  return settings;
}
