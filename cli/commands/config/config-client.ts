// gwctl config client [--type chat|messages|images]: what to enter in a client, per kind of client.
// The key is shown as a placeholder or a variable reference, never as a value.
import type { CommandModule } from 'yargs';
import { clientEntries, type ClientType } from '../../../core/config/client-entries.ts';
import { EXIT, type CliContext } from '../../cli-context.ts';
import { toJson } from '../../output/format-table.ts';
import { settingsOptions } from './settings-options.ts';

interface Args {
  type?: ClientType;
  keyRef: 'placeholder' | 'env';
  json: boolean;
}

export function configClientCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'client',
    describe: 'Print what to enter in a client: provider type, base URL, key reference',
    builder: (y) =>
      settingsOptions
        .add(y, ['baseUrl', 'imageBaseUrl', 'client.profile', 'client.baseUrlVar', 'client.tokenVar', 'client.model', 'client.modelVar'])
        .option('type', { choices: ['chat', 'messages', 'responses', 'images'] as const, describe: 'Only this kind of client (default: all); responses: the Codex CLI and other Responses-API clients' })
        .option('key-ref', { choices: ['placeholder', 'env'] as const, default: 'placeholder' as const, describe: 'Show the key as <API_KEY> or as a reference to the token variable' })
        .option('json', { type: 'boolean', default: false, describe: 'Print {"schemaVersion":1,"clients":[…]}' }) as never,
    handler: (args) => {
      const settings = settingsOptions.load(args as unknown as Record<string, unknown>, ctx);
      const { entries, notes } = settingsOptions.guard(() => clientEntries(settings, { type: args.type, keyRef: args.keyRef }));
      if (args.json) {
        ctx.stdout(toJson({ schemaVersion: 1, clients: entries, notes }));
      } else {
        const out: string[] = [];
        for (const e of entries) {
          out.push(e.title, `  Provider type  ${e.providerType}`, `  Base URL       ${e.baseUrl}   (${e.baseUrlNote})`, `  API key        ${e.apiKey}   (your own key; never share it)`);
          if (e.env) {
            const [first, ...rest] = Object.entries(e.env).map(([k, v]) => `${k}=${v}`);
            out.push(`  Variables      ${first}`, ...rest.map((r) => `                 ${r}`), '  Or let gwctl set them per session: gwctl start (uses the local proxy when healthy)');
          }
          for (const f of e.files ?? []) out.push(`  ${f.client.padEnd(15)}${f.path} (${f.note}):`, ...f.text.split('\n').map((line) => (line ? `    ${line}` : '')));
          out.push('');
        }
        for (const n of notes) out.push(`note: ${n}`);
        out.push('Check the key and address first: gwctl verify');
        ctx.stdout(out.join('\n') + '\n');
      }
      ctx.finish(EXIT.ok);
    },
  };
}
