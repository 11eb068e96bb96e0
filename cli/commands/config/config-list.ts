// gwctl config list [--json]: every setting with its effective value and where it came from, the
// active client profile, and exactly which variables `gwctl start` will set for the client.
import type { CommandModule } from 'yargs';
import { SettingsFile } from '../../../core/config/settings-file.ts';
import { startVariables } from '../../../core/launch/start-variables.ts';
import { EXIT, type CliContext } from '../../cli-context.ts';
import { toJson } from '../../output/format-table.ts';
import { renderSettings, renderStartVariables } from '../../output/render-settings.ts';
import { settingKeys } from './setting-keys.ts';
import { settingsOptions } from './settings-options.ts';

interface Args {
  json: boolean;
}

export function configListCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'list',
    describe: 'List every setting with its value and source, the client profile, and the variables gwctl start sets',
    builder: (y) =>
      settingsOptions
        .add(y, settingKeys.all)
        .option('json', { type: 'boolean', default: false, describe: 'Print {"schemaVersion":1,"file","settings":[{"key","value","source","origin"}],"start":{"profile","command","variables":[{"name","value","note"}]}}' }) as never,
    handler: (args) => {
      const resolved = settingsOptions.load(args as unknown as Record<string, unknown>, ctx);
      const settings = Object.values(resolved);
      const start = startVariables(resolved, ctx.env, process.cwd());
      if (args.json) ctx.stdout(toJson({ schemaVersion: 1, file: new SettingsFile(ctx.env).path, settings, start }));
      else ctx.stdout(`${renderSettings(settings, ctx.env)}\n${renderStartVariables(start)}`);
      ctx.finish(EXIT.ok);
    },
  };
}
