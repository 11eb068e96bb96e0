// {base_url} and friends as the routes need them: the root without /v1, and whether /v1 was given.
import { SettingError } from './setting-error.ts';
import type { ResolvedSettings } from './resolve-settings.ts';

export interface ServiceAddress {
  /** {base_url} without a trailing /v1 (the messages client's base address, spec 4.2). */
  root: string;
  /** The configured value carried a trailing /v1 that was removed. */
  hadV1: boolean;
  /** Where the value came from, for messages. */
  origin: string;
}

export function serviceAddress(settings: ResolvedSettings, key: 'baseUrl' | 'imageBaseUrl' = 'baseUrl'): ServiceAddress {
  const setting = settings[key];
  if (setting.value === null) {
    const example = key === 'baseUrl' ? 'https://gateway.example.com' : 'https://images.example.com';
    throw new SettingError(`${key} is not set.`, `Run \`gwctl config set ${key} ${example}\`, or pass --${key === 'baseUrl' ? 'base-url' : 'image-base-url'}.`);
  }
  const value = setting.value as string;
  const root = value.replace(/(\/v1)+$/, '');
  return { root, hadV1: root !== value, origin: setting.origin ?? 'default' };
}
