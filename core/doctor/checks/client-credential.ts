// Rule 3: the credential is set in the current shell. Without it the client gets 401 (missing
// authentication) on either route, which is not a fault of the service or the upstream.
import { maskCredential } from '../mask-credential.ts';
import { tildePath } from '../../paths.ts';
import { outcome } from '../check-result.ts';
import type { Check } from '../check.ts';
import type { DiagnoseContext } from '../diagnose-context.ts';
import { statusRows } from '../status-row.ts';

export const clientCredential: Check<DiagnoseContext> = {
  id: 'client.credential',
  explains: [401, 403, 429],
  async run(ctx) {
    const { auth, tokenVar, apiKeyVar } = ctx.profile;
    if (auth === 'oauth') return outcome.skip('auth path oauth (subscription login): the client needs no key variable');
    const variable = auth === 'service' ? tokenVar : apiKeyVar;
    const inShell = ctx.env[variable];
    const pinned = ctx.effective(auth === 'service' ? 'token' : 'apiKey');
    const pinNote = pinned.pinned ? `; ${variable} is pinned in ${tildePath(pinned.source, ctx.env)} (${maskCredential(pinned.value)}), which gwctl start removes` : '';
    if (inShell) return outcome.pass(`${variable} is set in this shell (${maskCredential(inShell)})${pinNote}`);
    const row = statusRows.byId('401-direct', ctx.vars);
    return outcome.fail(
      'TOKEN_MISSING_IN_SHELL',
      `${variable} is not set in this shell${pinNote}: the client would send no credential and get 401 on the direct route as through the proxy, which is missing authentication, not an upstream fault (rule 3)`,
      `${row.remedy}: export the key for this shell only (spec 5.6), then start the client.`,
      [`read -rs ${variable} && export ${variable}   # paste the key`, 'gwctl start'],
    );
  },
};
