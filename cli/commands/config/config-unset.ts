// gwctl config unset <key>: removes a stored setting so its default (or env/flag) applies again.
import type { CommandModule } from 'yargs';
import { SETTING_DEFINITIONS } from '../../../core/config/setting-definitions.ts';
import { removeSetting } from '../../../core/config/store-setting.ts';
import { EXIT, type CliContext } from '../../cli-context.ts';
import { settingKeys } from './setting-keys.ts';
import { settingsOptions } from './settings-options.ts';

interface Args {
  key: string;
}

export function configUnsetCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'unset <key>',
    describe: 'Remove a setting from the settings file',
    builder: (y) => y.positional('key', { type: 'string', describe: 'Setting name' }) as never,
    handler: (args) => {
      if (!SETTING_DEFINITIONS.some((d) => d.key === args.key)) throw settingKeys.unknown(args.key);
      const removed = settingsOptions.guard(() => removeSetting(ctx.env, args.key));
      ctx.stdout(`${removed.key} removed from ${removed.file}\n`);
      ctx.finish(EXIT.ok);
    },
  };
}
