// Last step for a reported 5xx: who failed. When the short real request went through the proxy and
// the service answered it, the proxy did its job and the fault is the service's or its upstream's.
// Otherwise the direct request decides: it works while the proxy route fails → the proxy is at fault.
import { outcome } from '../check-result.ts';
import type { Check } from '../check.ts';
import type { DiagnoseContext } from '../diagnose-context.ts';
import { proxyCommands } from '../proxy-commands.ts';
import { proxyInstall } from '../proxy-install.ts';

export const faultLocate: Check<DiagnoseContext> = {
  id: 'fault.locate',
  explains: [500, 502, 503, 504, 529],
  async run(ctx) {
    const probe = await ctx.messages();
    if (!('notSent' in probe) && probe.route === 'proxy' && probe.outcome.kind === 'response' && (probe.answeredBy.kind === 'service' || probe.answeredBy.kind === 'provider')) {
      const status = probe.outcome.status;
      if (status >= 500) {
        return outcome.fail('UPSTREAM_FAULT', `the short request through the proxy reached the service, which answered ${status}: the service or its upstream is at fault, not the proxy`, 'Nothing to fix on this machine: retry later, and report the time and the request id to the service operator if it persists.', ['gwctl diagnose   # later']);
      }
      return outcome.pass(`the short request through the proxy reached the service and got ${status}: the ${ctx.status} was not reproduced`);
    }
    const call = await ctx.direct();
    if (!call || call.outcome.kind === 'error') return outcome.skip('the direct request did not get an answer; see direct.request');
    const status = call.outcome.status;
    const health = await ctx.proxyHealth();
    const viaProxy = ctx.proxyMeant() || health.state === 'ok';
    if (status === 200 && viaProxy) {
      return outcome.fail(
        'PROXY_FAULT',
        `${ctx.status} was seen, the direct request to ${ctx.service.root} works (200) and the client goes through the proxy (${health.state}): the proxy is at fault, not the upstream`,
        `Check where the proxy forwards to (it must be ${ctx.service.root}) and its log, then restart it from a terminal outside any client session using it; meanwhile start the client directly.`,
        [...proxyCommands.setUpstream(proxyInstall(ctx), ctx.service.root), `${ctx.profile.baseUrlVar}=${ctx.service.root} ${ctx.profile.command}   # direct, for now`],
      );
    }
    if (status === 200) return outcome.pass(`the direct request works now (200) and the client does not use the proxy: the ${ctx.status} was not reproduced (a passing upstream fault)`);
    if (status >= 500) {
      return outcome.fail('UPSTREAM_FAULT', `the direct request fails too (${status}): the upstream is at fault, not the proxy`, 'Nothing to fix on this machine: retry later and report the time to the service if it persists.', [`gwctl verify   # later`]);
    }
    return outcome.skip(`the direct request answered ${status}; see direct.request`);
  },
};
