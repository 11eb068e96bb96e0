// gwctl login [--base-url URL] [--no-open] [--json]
// Device sign-in to the gateway: shows (and on a desktop opens) the approval address with its code,
// waits for the approval in a signed-in browser, and keeps the sign-in in the OS keychain or a file
// only the user can read. No key is ever copied into a shell.
import { spawn } from 'node:child_process';
import type { CommandModule } from 'yargs';
import { deviceLogin } from '../../core/sign-in/device-login.ts';
import type { DeviceAuthorization } from '../../core/sign-in/gateway-oauth-client.ts';
import { EXIT, type CliContext } from '../cli-context.ts';
import { toJson } from '../output/format-table.ts';
import { settingsOptions } from './config/settings-options.ts';
import { asCliError, signInGateway, signInStore } from './sign-in/sign-in-target.ts';

interface Args {
  open: boolean;
  json: boolean;
}

/** Opens the address in the desktop's browser; quietly nothing where there is none. */
function openBrowser(url: string, env: NodeJS.ProcessEnv): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : env.DISPLAY || env.WAYLAND_DISPLAY ? 'xdg-open' : undefined;
  if (!command) return;
  const child = spawn(command, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}

export function loginCommand(ctx: CliContext): CommandModule<object, Args> {
  return {
    command: 'login',
    describe: 'Sign in to the gateway from this machine (device sign-in approved in your browser); `gwctl token` then prints short-lived tokens',
    builder: (y) =>
      settingsOptions
        .add(y, ['baseUrl'])
        .option('open', { type: 'boolean', default: true, describe: 'Open the approval address in the browser when on a desktop terminal (--no-open: only print it)' })
        .option('json', { type: 'boolean', default: false, describe: 'Print {"gateway","keptIn","accessExpiresAt"} when signed in (the address and code still go to stderr)' }) as never,
    handler: async (args) => {
      const settings = settingsOptions.load(args as unknown as Record<string, unknown>, ctx);
      const gateway = signInGateway(settings);
      const store = await signInStore(ctx.env);
      const show = (authorization: DeviceAuthorization) => {
        const address = authorization.verification_uri_complete ?? authorization.verification_uri;
        ctx.stderr(
          `To sign in to ${gateway}, open this address in a browser where you are signed in to the gateway:\n\n  ${address}\n\n` +
            `and check that it shows the code ${authorization.user_code}, then press Approve. Waiting (the code expires in ${Math.round(authorization.expires_in / 60)} minutes)...\n`,
        );
        if (args.open && ctx.stdoutIsTerminal?.()) openBrowser(address, ctx.env);
      };
      const record = await asCliError(() => deviceLogin(gateway, { show }));
      await store.write(record);
      if (args.json) ctx.stdout(toJson({ gateway, keptIn: store.where, accessExpiresAt: new Date(record.accessExpiresAt).toISOString() }));
      else ctx.stdout(`Signed in to ${gateway}. The sign-in is kept in ${store.where}; \`gwctl token\` prints an access token, \`gwctl logout\` ends it.\n`);
      ctx.finish(EXIT.ok);
    },
  };
}
