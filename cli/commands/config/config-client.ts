// gwctl config client [--type claude|codex|gemini|opencode|qwen|chat|messages|responses|images]: what
// to enter in a client. For a named client: shell lines and files that work when pasted as printed
// (the key referred to as $MSGAPI_AUTH_TOKEN), model included. The key is never shown as a value.
import type { CommandModule } from 'yargs';
import type { HttpGet } from '../../../core/client/http-get.ts';
import { undiciGet } from '../../../core/client/undici-http-get.ts';
import { clientEntries, type ClientType } from '../../../core/config/client-entries.ts';
import { CLIENT_PROFILES, NEUTRAL_VARS } from '../../../core/config/client-profiles.ts';
import { NAMED_CLIENTS, namedClientSetup, setupShellText, type NamedClient } from '../../../core/config/named-client-setup.ts';
import { servedModel } from '../../../core/config/served-model.ts';
import { CLAUDE_MANAGED_SETTINGS_PATHS, claudeGatewayLoginSettings } from '../../../core/config/claude-gateway-login.ts';
import { serviceAddress } from '../../../core/config/service-address.ts';
import { EXIT, type CliContext } from '../../cli-context.ts';
import { toJson } from '../../output/format-table.ts';
import { settingsOptions } from './settings-options.ts';

interface Args {
  type?: ClientType | NamedClient;
  gatewayLogin: boolean;
  keyRef: 'placeholder' | 'env';
  json: boolean;
}

async function namedClient(ctx: CliContext, args: Args, client: NamedClient, http: HttpGet): Promise<void> {
  const settings = settingsOptions.load(args as unknown as Record<string, unknown>, ctx);
  const service = settingsOptions.guard(() => serviceAddress(settings));
  const key = ctx.env[NEUTRAL_VARS.token] || undefined;
  const model = await servedModel({ setting: settings['client.model'].value as string | null, root: service.root, key, ownPrefix: CLIENT_PROFILES[client].ownModelPrefix, http });
  const setup = namedClientSetup(client, service.root, model.id);
  if (args.json) {
    ctx.stdout(toJson({ schemaVersion: 1, clients: [{ ...setup, modelSource: model.source, keyVariable: NEUTRAL_VARS.token }], notes: [] }));
  } else {
    const out = [
      `# ${setup.title}: base URL ${setup.baseUrl} (${setup.baseUrlNote})`,
      `# model ${setup.model}: ${model.source}`,
      `# the key: export ${NEUTRAL_VARS.token} in this shell first (read -rs ${NEUTRAL_VARS.token} && export ${NEUTRAL_VARS.token})`,
      setupShellText(setup),
      `# try it: ${setup.tryIt}`,
      `# or let gwctl set all this per launch, without touching your files: gwctl start --profile ${client} -- …`,
    ];
    ctx.stdout(out.join('\n') + '\n');
  }
  ctx.finish(model.placeholder ? EXIT.failed : EXIT.ok);
}

/** The managed-settings file for Claude Code's Cloud gateway sign-in: JSON on stdout, where it goes on stderr. */
function claudeGatewayLogin(ctx: CliContext, args: Args): void {
  const settings = settingsOptions.load(args as unknown as Record<string, unknown>, ctx);
  const service = settingsOptions.guard(() => serviceAddress(settings));
  const file = claudeGatewayLoginSettings(service.root);
  const paths = CLAUDE_MANAGED_SETTINGS_PATHS;
  if (args.json) {
    ctx.stdout(toJson({ schemaVersion: 1, managedSettings: file, paths }));
  } else {
    ctx.stderr(
      `# Install this as Claude Code's managed settings (administrator-owned; Claude Code ignores these keys anywhere else):\n` +
        `#   Linux ${paths.linux}\n#   macOS ${paths.darwin}\n#   Windows ${paths.win32}\n` +
        `# then run claude and choose /login: it signs in through ${file.forceLoginGatewayUrl} (approve in the browser), no key needed.\n` +
        `# Remove ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN and apiKeyHelper from that machine: they conflict with a forced login method.\n`,
    );
    ctx.stdout(JSON.stringify(file, null, 2) + '\n');
  }
  ctx.finish(EXIT.ok);
}

export function configClientCommand(ctx: CliContext, deps: { http?: HttpGet } = {}): CommandModule<object, Args> {
  return {
    command: 'client',
    describe: 'Print what to enter in a client: provider type, base URL, key reference',
    builder: (y) =>
      settingsOptions
        .add(y, ['baseUrl', 'imageBaseUrl', 'client.profile', 'client.baseUrlVar', 'client.tokenVar', 'client.model', 'client.modelVar'])
        .option('type', { choices: [...NAMED_CLIENTS, 'chat', 'messages', 'responses', 'images'] as const, describe: 'A named client (claude, codex, gemini, opencode, qwen: lines to paste, model included) or a kind of client (default: all kinds)' })
        .option('key-ref', { choices: ['placeholder', 'env'] as const, default: 'placeholder' as const, describe: 'Show the key as <API_KEY> or as a reference to the token variable' })
        .option('gateway-login', { type: 'boolean', default: false, describe: "With --type claude: print the managed-settings file that makes Claude Code's /login sign in through this gateway (no key on the machine)" })
        .option('json', { type: 'boolean', default: false, describe: 'Print {"schemaVersion":1,"clients":[…]}' })
        .check((raw) => ((raw as unknown as Args).gatewayLogin && (raw as unknown as Args).type !== 'claude' ? '--gateway-login goes with --type claude.' : true)) as never,
    handler: async (args) => {
      if (args.gatewayLogin) return claudeGatewayLogin(ctx, args);
      if (args.type && (NAMED_CLIENTS as readonly string[]).includes(args.type)) return namedClient(ctx, args, args.type as NamedClient, deps.http ?? undiciGet);
      const settings = settingsOptions.load(args as unknown as Record<string, unknown>, ctx);
      const { entries, notes } = settingsOptions.guard(() => clientEntries(settings, { type: args.type as ClientType | undefined, keyRef: args.keyRef }));
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
