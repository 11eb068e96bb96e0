// gwctl config set <key> <value>: validated, stored owner-only; keys (secrets) are refused.
import type { CommandModule } from 'yargs';
import { SETTING_DEFINITIONS } from '../../../core/config/setting-definitions.ts';
import { storeSetting } from '../../../core/config/store-setting.ts';
import { EXIT, type CliContext } from '../../cli-context.ts';
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
        .positional('key', { type: 'string', describe: 'Setting name, e.g. baseUrl; profile is short for client.profile' })
        .positional('value', { type: 'string', describe: 'Value; for client.settingsFiles a JSON array or paths separated by ":"' })
        .parserConfiguration({ 'parse-positional-numbers': false })
        .option('json', { type: 'boolean', default: false, describe: 'Print {"key","value","file"}' }) as never,
    handler: (args) => {
      // `profile` is short for client.profile (gwctl config set profile codex).
      const key = args.key === 'profile' ? 'client.profile' : args.key;
      if (!SETTING_DEFINITIONS.some((d) => d.key === key)) throw settingKeys.unknown(args.key);
      const stored = settingsOptions.guard(() => storeSetting(ctx.env, key, String(args.value)));
      if (args.json) ctx.stdout(toJson({ key: stored.key, value: stored.value, file: stored.file }));
      else ctx.stdout(`${stored.key} = ${settingValueText(stored.value!)}  (saved to ${stored.file})\n`);
      if ((args.key === 'baseUrl' || args.key === 'imageBaseUrl') && typeof stored.value === 'string' && /\/v1\/?$/.test(stored.value)) {
        const root = stored.value.replace(/(\/v1)+\/?$/, '');
        ctx.stderr(
          `gwctl: warning: ${args.key} ends with /v1. gwctl stores the service address without it and adds /v1 where a client needs it:\n` +
            `  chat-completions and image clients use ${root}/v1; messages-protocol clients use ${root} (they append /v1/messages).\n` +
            `  Store the address alone to keep this clear: gwctl config set ${args.key} ${root}\n`,
        );
      }
      if (stored.overriddenBy) ctx.stderr(`gwctl: note: ${stored.overriddenBy} is set in this environment and overrides the file.\n`);
      ctx.finish(EXIT.ok);
    },
  };
}
