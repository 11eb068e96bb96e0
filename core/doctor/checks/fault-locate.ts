// Spec 4.4 check order, last step, for a reported 502/503: the direct request decides whether the
// proxy or the upstream is at fault.
import { outcome } from '../check-result.ts';
import type { Check } from '../check.ts';
import type { DiagnoseContext } from '../diagnose-context.ts';
import { proxyCommands } from '../proxy-commands.ts';
import { proxyInstall } from '../proxy-install.ts';

export const faultLocate: Check<DiagnoseContext> = {
  id: 'fault.locate',
  explains: [502, 503],
  async run(ctx) {
    const call = await ctx.direct();
    if (!call || call.outcome.kind === 'error') return outcome.skip('the direct request did not get an answer; see direct.request');
    const status = call.outcome.status;
    const health = await ctx.proxyHealth();
    const viaProxy = ctx.proxyMeant() || health.state === 'ok';
    if (status === 200 && viaProxy) {
      return outcome.fail(
        'PROXY_FAULT',
        `${ctx.status} was seen, the direct request to ${ctx.service.root} works (200) and the client goes through the proxy (${health.state}): the proxy is at fault, not the upstream`,
        'Restart the proxy and check its log (from a terminal outside any client session using it, rule 5); meanwhile start the client directly.',
        [...proxyCommands.restart(proxyInstall(ctx), ctx.service.root), `${ctx.profile.baseUrlVar}=${ctx.service.root} ${ctx.profile.command}   # direct, for now`],
      );
    }
    if (status === 200) return outcome.pass(`the direct request works now (200) and the client does not use the proxy: the ${ctx.status} was not reproduced (a passing upstream fault)`);
    if (status >= 500) {
      return outcome.fail('UPSTREAM_FAULT', `the direct request fails too (${status}): the upstream is at fault, not the proxy`, 'Nothing to fix on this machine: retry later and report the time to the service if it persists.', [`gwctl verify   # later`]);
    }
    return outcome.skip(`the direct request answered ${status}; see direct.request`);
  },
};
