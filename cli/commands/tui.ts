// gwctl tui (and `gwctl` with no arguments on a terminal): the interactive app. React and Ink are
// loaded here by dynamic import only, so no other command ever loads them.
import type { CommandModule } from 'yargs';
import { SETTING_DEFINITIONS, type SettingKey } from '../../core/config/setting-definitions.ts';
import { CliError, EXIT, type CliContext } from '../cli-context.ts';
import { settingKeys } from './config/setting-keys.ts';
import { settingsOptions } from './config/settings-options.ts';

export interface TuiTerminal {
  /** Standard input and output are both a terminal (the app needs raw keyboard input). */
  isTerminal: () => boolean;
}

function camel(flag: string): string {
  return flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

export function tuiCommand(ctx: CliContext, terminal: TuiTerminal): CommandModule<object, Record<string, unknown>> {
  return {
    command: 'tui',
    describe: 'Open the interactive app (also what `gwctl` alone does on a terminal)',
    builder: (y) => settingsOptions.add(y, settingKeys.all) as never,
    handler: async (args) => {
      if (!terminal.isTerminal()) {
        throw new CliError('gwctl tui needs a terminal: standard input and output must both be a TTY.', 'Run it in a terminal, or use the commands (gwctl --help), which work anywhere.', EXIT.usage);
      }
      const flags: Partial<Record<SettingKey, unknown>> = {};
      for (const def of SETTING_DEFINITIONS) if (args[camel(def.flag)] !== undefined) flags[def.key] = args[camel(def.flag)];
      const [{ runTui }, { productionDeps }] = await Promise.all([import('../../tui/run-tui.tsx'), import('../../tui/production-deps.ts')]);
      const { deps, launch } = productionDeps({ env: ctx.env, cwd: process.cwd(), flags });
      ctx.finish(await runTui({ deps, launch }));
    },
  };
}
