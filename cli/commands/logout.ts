// gwctl logout [--base-url URL] [--json]
// Ends the sign-in of `gwctl login`: revoked at the gateway (its access tokens stop working on
// every instance at once) and removed from the keychain or file.
import type { CommandModule } from 'yargs';
import { revoke } from '../../core/sign-in/gateway-oauth-client.ts';
import { CliError, EXIT, type CliContext } from '../cli-context.ts';
import { toJson } from '../output/format-table.ts';
import { settingsOptions } from './config/settings-options.ts';
import { signInGateway, signInStore } from './sign-in/sign-in-target.ts';

export function logoutCommand(ctx: CliContext): CommandModule<object, { json: boolean }> {
  return {
    command: 'logout',
    describe: "End this machine's sign-in to the gateway (revoked there, removed here)",
    builder: (y) => settingsOptions.add(y, ['baseUrl']).option('json', { type: 'boolean', default: false, describe: 'Print {"gateway","signedIn","revoked"}' }) as never,
    handler: async (args) => {
      const settings = settingsOptions.load(args as unknown as Record<string, unknown>, ctx);
      const gateway = signInGateway(settings);
      const store = await signInStore(ctx.env);
      const record = await store.read(gateway);
      if (!record) {
        ctx.stdout(args.json ? toJson({ gateway, signedIn: false, revoked: false }) : `Not signed in to ${gateway}; nothing to do.\n`);
        ctx.finish(EXIT.ok);
        return;
      }
      const endpoint = record.revocationEndpoint ?? `${gateway}/oauth/revoke`;
      let revoked = false;
      let problem = '';
      try {
        revoked = await revoke(endpoint, record.refreshToken, 'refresh_token');
      } catch (error) {
        problem = (error as Error).message;
      }
      await store.remove(gateway);
      if (!revoked) {
        throw new CliError(
          `Removed the sign-in from ${store.where}, but the gateway did not confirm the revocation${problem ? ` (${problem})` : ''}.`,
          'Its access token stops working within the hour anyway; to end it now, sign out everywhere on the gateway’s /account page.',
        );
      }
      ctx.stdout(args.json ? toJson({ gateway, signedIn: true, revoked: true }) : `Signed out of ${gateway}: the sign-in is revoked and removed from ${store.where}.\n`);
      ctx.finish(EXIT.ok);
    },
  };
}
