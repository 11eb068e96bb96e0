// gwctl config …: gwctl's own settings (layered: default < file < env < flag) and client settings.
import type { CommandModule } from 'yargs';
import type { CliContext } from '../cli-context.ts';
import { configClientCommand } from './config/config-client.ts';
import { configGetCommand } from './config/config-get.ts';
import { configListCommand } from './config/config-list.ts';
import { configPathCommand } from './config/config-path.ts';
import { configSetCommand } from './config/config-set.ts';
import { configUnsetCommand } from './config/config-unset.ts';

export function configCommand(ctx: CliContext): CommandModule {
  return {
    command: 'config',
    describe: 'Settings: base URLs, proxy URL, client profile; what to enter in a client',
    builder: (y) =>
      y
        .command(configGetCommand(ctx) as never)
        .command(configSetCommand(ctx) as never)
        .command(configUnsetCommand(ctx) as never)
        .command(configListCommand(ctx) as never)
        .command(configPathCommand(ctx) as never)
        .command(configClientCommand(ctx) as never)
        .demandCommand(1, 'Name a config subcommand.'),
    handler: () => undefined,
  };
}
