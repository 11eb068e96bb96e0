// gwctl config set <key> <value>: validated, stored owner-only; keys (secrets) are refused.
import type { CommandModule } from 'yargs';
import { SETTING_DEFINITIONS } from '../../../core/config/setting-definitions.ts';
import { SettingsFile } from '../../../core/config/settings-file.ts';
import { CliError, EXIT, type CliContext } from '../../cli-context.ts';
import { toJson } from '../../output/format-table.ts';
import { settingValueText } from '../../output/render-settings.ts';
import { settingKeys } from './setting-keys.ts';
import { settingsOptions } from './settings-options.ts';

interface Args {
  key: string;
  value: string;
  json: boolean;
}

export function configSetCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'set <key> <value>',
    describe: 'Store a setting in the settings file (0600); keys are never stored',
    builder: (y) =>
      y
        .positional('key', { type: 'string', describe: 'Setting name, e.g. baseUrl' })
        .positional('value', { type: 'string', describe: 'Value; for client.settingsFiles a JSON array or paths separated by ":"' })
        .parserConfiguration({ 'parse-positional-numbers': false })
        .option('json', { type: 'boolean', default: false, describe: 'Print {"key","value","file"}' }) as never,
    handler: (args) => {
      const def = SETTING_DEFINITIONS.find((d) => d.key === args.key);
      if (!def) throw settingKeys.unknown(args.key);
      const raw = String(args.value);
      if (/\bsk-[A-Za-z0-9_-]{8,}/.test(raw)) {
        throw new CliError('That value looks like an API key; gwctl does not store keys.', 'Keep the key in a password manager and export it for the shell that needs it (spec 5.6), e.g. `read -rs MSGAPI_AUTH_TOKEN && export MSGAPI_AUTH_TOKEN`.', EXIT.usage);
      }
      const value = settingsOptions.guard(() => def.parse(raw, args.key));
      const file = new SettingsFile(ctx.env);
      file.set(def.key, value);
      if (args.json) ctx.stdout(toJson({ key: def.key, value, file: file.path }));
      else ctx.stdout(`${def.key} = ${settingValueText(value)}  (saved to ${file.path})\n`);
      if (ctx.env[def.env]) ctx.stderr(`gwctl: note: ${def.env} is set in this environment and overrides the file.\n`);
      ctx.finish(EXIT.ok);
    },
  };
}
