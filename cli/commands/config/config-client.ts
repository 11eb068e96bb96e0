// gwctl config client [--type chat|messages|images]: what to enter in a client (spec 4.2, 4.3, 5.7).
// The key is shown as a placeholder or a variable reference, never as a value.
import type { CommandModule } from 'yargs';
import { serviceAddress } from '../../../core/config/service-address.ts';
import { EXIT, type CliContext } from '../../cli-context.ts';
import { toJson } from '../../output/format-table.ts';
import { settingsOptions } from './settings-options.ts';

type ClientType = 'chat' | 'messages' | 'images';

interface Args {
  type?: ClientType;
  keyRef: 'placeholder' | 'env';
  json: boolean;
}

interface ClientEntry {
  type: ClientType;
  title: string;
  providerType: string;
  baseUrl: string;
  baseUrlNote: string;
  apiKey: string;
  env?: Record<string, string>;
}

export function configClientCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'client',
    describe: 'Print what to enter in a client: provider type, base URL, key reference',
    builder: (y) =>
      settingsOptions
        .add(y, ['baseUrl', 'imageBaseUrl', 'client.baseUrlVar', 'client.tokenVar'])
        .option('type', { choices: ['chat', 'messages', 'images'] as const, describe: 'Only this kind of client (default: all)' })
        .option('key-ref', { choices: ['placeholder', 'env'] as const, default: 'placeholder' as const, describe: 'Show the key as <API_KEY> or as a reference to the token variable' })
        .option('json', { type: 'boolean', default: false, describe: 'Print {"schemaVersion":1,"clients":[…]}' }) as never,
    handler: (args) => {
      const settings = settingsOptions.load(args as unknown as Record<string, unknown>, ctx);
      const tokenVar = settings['client.tokenVar'].value as string;
      const key = args.keyRef === 'env' ? `\${${tokenVar}}` : '<API_KEY>';
      const wanted: ClientType[] = args.type ? [args.type] : ['chat', 'messages', 'images'];
      const notes: string[] = [];
      const entries: ClientEntry[] = [];
      const text = settingsOptions.guard(() => (wanted.includes('chat') || wanted.includes('messages') ? serviceAddress(settings) : undefined));
      if (text?.hadV1) notes.push(`baseUrl ends with /v1; {base_url} is ${text.root} (the /v1 is added below where a client needs it).`);
      if (text && wanted.includes('chat')) {
        entries.push({ type: 'chat', title: 'Chat-completions client (SDKs, CLI agents, chat desktop apps)', providerType: 'OpenAI-compatible (chat completions)', baseUrl: `${text.root}/v1`, baseUrlNote: 'must end with /v1', apiKey: key });
      }
      if (text && wanted.includes('messages')) {
        entries.push({
          type: 'messages',
          title: 'Messages-protocol client',
          providerType: 'messages protocol',
          baseUrl: text.root,
          baseUrlNote: 'without /v1: the client appends /v1/messages',
          apiKey: key,
          env: { [settings['client.baseUrlVar'].value as string]: text.root, [tokenVar]: key },
        });
      }
      if (wanted.includes('images')) {
        if (settings.imageBaseUrl.value === null && !args.type) {
          notes.push('imageBaseUrl is not set; set it with `gwctl config set imageBaseUrl <url>` to see the image client settings.');
        } else {
          const image = settingsOptions.guard(() => serviceAddress(settings, 'imageBaseUrl'));
          entries.push({ type: 'images', title: 'Image client (image APIs, image-generation skills)', providerType: 'OpenAI-compatible (images)', baseUrl: `${image.root}/v1`, baseUrlNote: 'separate from the text address; ends with /v1', apiKey: key });
        }
      }
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
