// The setting names the config commands accept, and the usage error for any other name.
import { SETTING_DEFINITIONS, type SettingKey } from '../../../core/config/setting-definitions.ts';
import { CliError, EXIT } from '../../cli-context.ts';

const ALL: SettingKey[] = SETTING_DEFINITIONS.map((d) => d.key);

export const settingKeys = {
  all: ALL,
  unknown(key: string): CliError {
    return new CliError(`Unknown setting "${key}".`, `Settings: ${ALL.join(', ')}.`, EXIT.usage);
  },
};
