// Settings flags shared by config, verify, start and diagnose: each setting's flag overrides its
// environment variable, which overrides the settings file, which overrides the default.
import type { Argv } from 'yargs';
import { SETTING_DEFINITIONS, type SettingKey } from '../../../core/config/setting-definitions.ts';
import { SettingError } from '../../../core/config/setting-error.ts';
import { SettingsFile } from '../../../core/config/settings-file.ts';
import { resolveSettings, type ResolvedSettings } from '../../../core/config/resolve-settings.ts';
import { CliError, EXIT, type CliContext } from '../../cli-context.ts';

function camel(flag: string): string {
  return flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

export const settingsOptions = {
  /** Adds the flags of the given settings to a command, grouped under "Settings". */
  add<T>(yargs: Argv<T>, keys: readonly SettingKey[]): Argv<T> {
    let y = yargs;
    for (const def of SETTING_DEFINITIONS.filter((d) => keys.includes(d.key))) {
      y = y.option(def.flag, { type: 'string', group: 'Settings:', describe: `${def.describe} [env ${def.env}; setting ${def.key}]` }) as Argv<T>;
    }
    return y;
  },

  /** Resolves every setting from the layers; a bad value becomes a usage error (exit 2). */
  load(args: Record<string, unknown>, ctx: CliContext): ResolvedSettings {
    const flags: Partial<Record<SettingKey, unknown>> = {};
    for (const def of SETTING_DEFINITIONS) {
      const value = args[camel(def.flag)];
      if (value !== undefined) flags[def.key] = value;
    }
    return settingsOptions.guard(() => resolveSettings({ file: new SettingsFile(ctx.env), env: ctx.env, flags }));
  },

  /** Runs work (sync or async) and turns a SettingError into a usage error. */
  guard<R>(work: () => R): R {
    const rethrow = (error: unknown): never => {
      if (error instanceof SettingError) throw new CliError(error.message, error.remedy, EXIT.usage);
      throw error;
    };
    try {
      const result = work();
      return (result instanceof Promise ? result.catch(rethrow) : result) as R;
    } catch (error) {
      return rethrow(error);
    }
  },
};
