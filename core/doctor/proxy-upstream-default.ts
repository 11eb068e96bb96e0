// The classic: a key of this service through a proxy whose upstream is left at its default (a
// service definition made without CACHE_FIX_PROXY_UPSTREAM, or a proxy started without it). The
// request goes to the vendor, which refuses the key or does not answer here. Every check that sees
// it (proxy.upstream, messages.request, fault.locate) reports this cause with the same fix, so the
// verdict never calls it a proxy fault or a bad key.
import { causeRemedy } from '../causes/cause-remedy.ts';
import { outcome } from './check-result.ts';
import type { CheckOutcome } from './check.ts';
import type { DiagnoseContext } from './diagnose-context.ts';
import { proxyCommands } from './proxy-commands.ts';
import { proxyInstall } from './proxy-install.ts';

/** The running proxy's upstream is known (from its process or its service definition) and left at the default. */
export function upstreamKnownDefault(ctx: DiagnoseContext): boolean {
  const up = ctx.upstream();
  return ctx.profile.auth === 'service' && up.value === undefined && (up.source === 'process' || up.source === 'service-file');
}

export function proxyUpstreamDefaultOutcome(ctx: DiagnoseContext, observed: string, severity: 'fail' | 'warn' = 'fail'): CheckOutcome {
  const root = ctx.service.root;
  const fix = causeRemedy('PROXY_UPSTREAM_DEFAULT', ctx.vars);
  return (severity === 'fail' ? outcome.fail : outcome.warn)('PROXY_UPSTREAM_DEFAULT', observed, fix.remedy, proxyCommands.setUpstream(proxyInstall(ctx), root));
}
