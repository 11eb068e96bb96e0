// gwctl config path [--json]: where the settings file is, and whether it exists yet.
import type { CommandModule } from 'yargs';
import { SettingsFile } from '../../../core/config/settings-file.ts';
import { EXIT, type CliContext } from '../../cli-context.ts';
import { toJson } from '../../output/format-table.ts';

interface Args {
  json: boolean;
}

export function configPathCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'path',
    describe: 'Print the path of the settings file',
    builder: (y) => y.option('json', { type: 'boolean', default: false, describe: 'Print {"path","exists"}' }) as never,
    handler: (args) => {
      const file = new SettingsFile(ctx.env);
      if (args.json) ctx.stdout(toJson({ path: file.path, exists: file.exists() }));
      else ctx.stdout(`${file.path}\n`);
      ctx.finish(EXIT.ok);
    },
  };
}
