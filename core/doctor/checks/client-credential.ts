// The credential is set in the current shell, in the client's own variable or the neutral name
// (gwctl start hands it to the client in the one variable it reads). Without it the client gets 401
// (missing authentication) on either route, which is not a fault of the service or the upstream.
import { findCredential, notSetText } from '../../launch/client-credential.ts';
import { maskCredential } from '../mask-credential.ts';
import { tildePath } from '../../paths.ts';
import { outcome } from '../check-result.ts';
import type { Check } from '../check.ts';
import type { DiagnoseContext } from '../diagnose-context.ts';
import { causeRemedy } from '../../causes/cause-remedy.ts';

export const clientCredential: Check<DiagnoseContext> = {
  id: 'client.credential',
  clients: ['messages'],
  explains: [401, 403, 429],
  async run(ctx) {
    const lookup = findCredential(ctx.profile, ctx.env);
    if (!lookup) return outcome.skip('auth path oauth (subscription login): the client needs no key variable');
    const variable = lookup.clientVar;
    const pinned = ctx.effective(ctx.profile.auth === 'service' ? 'token' : 'apiKey');
    const pinNote = pinned.pinned ? `; ${variable} is pinned in ${tildePath(pinned.source, ctx.env)} (${maskCredential(pinned.value)}), which gwctl start removes` : '';
    if (lookup.value) {
      const handed = lookup.foundIn === variable ? '' : `; gwctl start hands it to the client as ${variable}`;
      return outcome.pass(`${lookup.foundIn} is set in this shell (${maskCredential(lookup.value)})${handed}${pinNote}`);
    }
    const fix = causeRemedy('TOKEN_MISSING_IN_SHELL', ctx.vars);
    const keep = lookup.sources[0]!;
    return outcome.fail(
      'TOKEN_MISSING_IN_SHELL',
      `${notSetText(lookup)} in this shell${pinNote}: the client would send no credential and get 401 on the direct route as through the proxy, which is missing authentication, not an upstream fault`,
      `${fix.remedy} Export the key for this shell only (it is never written to a file), then start the client with gwctl start.`,
      [`read -rs ${keep} && export ${keep}   # paste the key`, 'gwctl start'],
    );
  },
};
