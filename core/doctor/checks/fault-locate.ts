// Last step for a reported 5xx: who failed. When the short real request went through the proxy and
// the service answered it, the proxy did its job and the fault is the service's or its upstream's.
// Otherwise the direct request decides: it works while the proxy route fails → the proxy is at fault.
import { outcome } from '../check-result.ts';
import type { Check } from '../check.ts';
import type { DiagnoseContext } from '../diagnose-context.ts';
import { proxyAnsweredItself, proxyForwardFault, statusOf } from '../proxy-forward-fault.ts';
import { proxyInstall } from '../proxy-install.ts';
import { proxyUpstreamDefaultOutcome, upstreamKnownDefault } from '../proxy-upstream-default.ts';

export const faultLocate: Check<DiagnoseContext> = {
  id: 'fault.locate',
  clients: ['messages'],
  explains: [500, 502, 503, 504, 529],
  async run(ctx) {
    const probe = await ctx.messages();
    const forward = { install: proxyInstall(ctx), root: ctx.service.root, baseUrlVar: ctx.profile.baseUrlVar, command: ctx.profile.command };
    if (proxyAnsweredItself(probe) && upstreamKnownDefault(ctx)) {
      return proxyUpstreamDefaultOutcome(ctx, `the short request through the proxy got ${statusOf(probe)} from the proxy itself: its upstream is left at its default, so this service's key goes to the vendor`);
    }
    if (proxyAnsweredItself(probe)) {
      return proxyForwardFault(`the short request through the proxy got ${statusOf(probe)} from the proxy itself, not from the service: the proxy forwards to an address that does not answer`, forward);
    }
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
      return proxyForwardFault(`${ctx.status} was seen, the direct request to ${ctx.service.root} works (200) and the client goes through the proxy (${health.state}): the proxy is at fault, not the upstream`, forward);
    }
    if (status === 200) return outcome.pass(`the direct request works now (200) and the client does not use the proxy: the ${ctx.status} was not reproduced (a passing upstream fault)`);
    if (status >= 500) {
      return outcome.fail('UPSTREAM_FAULT', `the direct request fails too (${status}): the upstream is at fault, not the proxy`, 'Nothing to fix on this machine: retry later and report the time to the service if it persists.', [`gwctl verify   # later`]);
    }
    return outcome.skip(`the direct request answered ${status}; see direct.request`);
  },
};
