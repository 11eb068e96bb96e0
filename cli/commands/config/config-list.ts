// gwctl config list [--json]: every setting with its effective value and where it came from.
import type { CommandModule } from 'yargs';
import { SettingsFile } from '../../../core/config/settings-file.ts';
import { EXIT, type CliContext } from '../../cli-context.ts';
import { toJson } from '../../output/format-table.ts';
import { renderSettings } from '../../output/render-settings.ts';
import { settingKeys } from './setting-keys.ts';
import { settingsOptions } from './settings-options.ts';

interface Args {
  json: boolean;
}

export function configListCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'list',
    describe: 'List every setting with its value and source (default, file, env, flag)',
    builder: (y) => settingsOptions.add(y, settingKeys.all).option('json', { type: 'boolean', default: false, describe: 'Print {"schemaVersion":1,"file","settings":[{"key","value","source","origin"}]}' }) as never,
    handler: (args) => {
      const settings = Object.values(settingsOptions.load(args as unknown as Record<string, unknown>, ctx));
      if (args.json) ctx.stdout(toJson({ schemaVersion: 1, file: new SettingsFile(ctx.env).path, settings }));
      else ctx.stdout(renderSettings(settings, ctx.env));
      ctx.finish(EXIT.ok);
    },
  };
}
