// gwctl config get <key> [--json]: the effective value on stdout (script-friendly), its source on stderr.
import type { CommandModule } from 'yargs';
import type { SettingKey } from '../../../core/config/setting-definitions.ts';
import { EXIT, type CliContext } from '../../cli-context.ts';
import { toJson } from '../../output/format-table.ts';
import { settingKeys } from './setting-keys.ts';
import { settingsOptions } from './settings-options.ts';

interface Args {
  key: string;
  json: boolean;
}

export function configGetCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'get <key>',
    describe: 'Print the effective value of a setting (its source on stderr)',
    builder: (y) =>
      settingsOptions
        .add(y, settingKeys.all)
        .positional('key', { type: 'string', describe: `One of ${settingKeys.all.join(', ')}` })
        .option('json', { type: 'boolean', default: false, describe: 'Print {"key","value","source","origin"}' }) as never,
    handler: (args) => {
      if (!settingKeys.all.includes(args.key as SettingKey)) throw settingKeys.unknown(args.key);
      const setting = settingsOptions.load(args as unknown as Record<string, unknown>, ctx)[args.key as SettingKey];
      if (args.json) {
        ctx.stdout(toJson(setting));
      } else {
        const value = setting.value;
        if (value === null) {
          ctx.stderr(`# ${setting.key} is not set; set it with \`gwctl config set ${setting.key} <value>\`\n`);
        } else {
          ctx.stdout(`${Array.isArray(value) ? value.join('\n') : value}\n`);
          ctx.stderr(`# from ${setting.source}${setting.origin ? ` (${setting.origin})` : ''}\n`);
        }
      }
      ctx.finish(setting.value === null ? EXIT.failed : EXIT.ok);
    },
  };
}
