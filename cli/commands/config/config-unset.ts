// gwctl config unset <key>: removes a stored setting so its default (or env/flag) applies again.
import type { CommandModule } from 'yargs';
import { SETTING_DEFINITIONS } from '../../../core/config/setting-definitions.ts';
import { SettingsFile } from '../../../core/config/settings-file.ts';
import { EXIT, type CliContext } from '../../cli-context.ts';
import { settingKeys } from './setting-keys.ts';

interface Args {
  key: string;
}

export function configUnsetCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'unset <key>',
    describe: 'Remove a setting from the settings file',
    builder: (y) => y.positional('key', { type: 'string', describe: 'Setting name' }) as never,
    handler: (args) => {
      const def = SETTING_DEFINITIONS.find((d) => d.key === args.key);
      if (!def) throw settingKeys.unknown(args.key);
      const file = new SettingsFile(ctx.env);
      file.unset(def.key);
      ctx.stdout(`${def.key} removed from ${file.path}\n`);
      ctx.finish(EXIT.ok);
    },
  };
}
