// The proxy's upstream matches the authentication path. Read from the installed service definition
// (what the supervised proxy runs with), else from this shell. A key of this service with the
// upstream left at its default is the classic 401. A proxy started by hand elsewhere may run with
// other settings than this shell shows, so when the short real request went through the proxy, its
// answer decides: an answer from this service proves where the proxy forwards to.
import { sameAddress } from '../../launch/same-address.ts';
import { tildePath } from '../../paths.ts';
import { outcome } from '../check-result.ts';
import type { Check } from '../check.ts';
import type { DiagnoseContext } from '../diagnose-context.ts';
import { proxyCommands } from '../proxy-commands.ts';
import { proxyInstall } from '../proxy-install.ts';
import { doubledV1 } from '../messages-probe.ts';
import { proxyAnsweredItself, proxyForwardFault, statusOf } from '../proxy-forward-fault.ts';

const RULES = 'Regenerate the service definition and restart the proxy from a terminal outside any client session that uses it (never from inside a session that talks through the proxy).';

export const proxyUpstream: Check<DiagnoseContext> = {
  id: 'proxy.upstream',
  clients: ['messages'],
  explains: [401, 403, 404, 502, 503, 504],
  async run(ctx) {
    const up = ctx.upstream();
    const health = await ctx.proxyHealth();
    const install = proxyInstall(ctx);
    const root = ctx.service.root;
    const from = up.source === 'service-file' ? tildePath(up.file!, ctx.env) : 'this shell (no service definition installed; a proxy started by hand uses its terminal\'s variables)';
    const setting = up.value === undefined ? 'CACHE_FIX_PROXY_UPSTREAM is not set (the built-in default: the official vendor)' : `CACHE_FIX_PROXY_UPSTREAM=${up.value}`;
    const stale = up.shellValue !== undefined && !sameAddress(up.shellValue, up.value) ? ` (this shell has CACHE_FIX_PROXY_UPSTREAM=${up.shellValue}, which the service only picks up after \`cache-fix-proxy install-service --force\`)` : '';
    const observed = `${setting} in ${from}${stale}`;
    const inUse = health.state === 'ok' || health.state === 'degraded' || ctx.proxyMeant();
    const make = inUse ? outcome.fail : outcome.warn;
    if (ctx.profile.auth === 'service') {
      const remedy = `Set CACHE_FIX_PROXY_UPSTREAM to ${root}; for this service's keys the step must not be omitted. ${RULES}`;
      const commands = proxyCommands.setUpstream(install, root);
      const proof = health.state === 'ok' ? await reachedService(ctx) : undefined;
      if (proof && sameAddress(up.value, root)) return outcome.pass(`${observed}: matches ${root} for this service's key; ${proof}`);
      if (proof && up.source === 'environment') return outcome.pass(`${observed}, but the running proxy was started elsewhere: ${proof}, so it forwards to this service`);
      if (proof) {
        return outcome.warn(
          up.value === undefined ? 'PROXY_UPSTREAM_DEFAULT' : 'PROXY_UPSTREAM_MISMATCH',
          `${observed}: the running proxy forwards to this service (${proof}), but after a restart it would run with this definition and send this service's key elsewhere`,
          remedy,
          commands,
        );
      }
      const probe = health.state === 'ok' ? await ctx.messages() : undefined;
      if (probe && proxyAnsweredItself(probe)) {
        const status = statusOf(probe);
        const running = up.value !== undefined && sameAddress(up.value, root) ? `, although the ${up.source === 'service-file' ? 'definition' : 'shell'} names ${root}: the running proxy was started with other settings` : '';
        return proxyForwardFault(`${observed}; the short request through the proxy got ${status} from the proxy itself, not from the service: it forwards to an address that does not answer${running}`, {
          install,
          root,
          baseUrlVar: ctx.profile.baseUrlVar,
          command: ctx.profile.command,
        });
      }
      if (up.value === undefined) {
        return make('PROXY_UPSTREAM_DEFAULT', `${observed}: requests with this service's key bypass the service and answer 401 or reach a wrong account`, remedy, commands);
      }
      if (sameAddress(up.value, root)) return outcome.pass(`${observed}: matches {base_url} for this service's key`.replace('{base_url}', root));
      if (sameAddress(up.value, ctx.proxyUrl)) return make('PROXY_UPSTREAM_MISMATCH', `${observed}: the proxy forwards to itself (a loop)`, remedy, commands);
      if (sameAddress(up.value, `${root}/v1`) || /\/v1\/*$/.test(up.value)) {
        return make('PROXY_UPSTREAM_MISMATCH', `${observed}: a chat-completions /v1 address; the proxy appends /v1/messages, giving /v1/v1/messages (404)`, remedy, commands);
      }
      return make('PROXY_UPSTREAM_MISMATCH', `${observed}: not ${root}, so this service's key is sent to another upstream`, remedy, commands);
    }
    const auth = ctx.profile.auth === 'vendor' ? 'an official vendor key' : 'a subscription login';
    if (up.value === undefined) return outcome.pass(`${observed}: the default, right for ${auth}`);
    if (sameAddress(up.value, root)) {
      return make('PROXY_UPSTREAM_MISMATCH', `${observed}: this service, but the auth path is ${auth}, whose credential this service does not accept`, `Leave CACHE_FIX_PROXY_UPSTREAM unset for ${auth}: the built-in default is the vendor. ${RULES}`, proxyCommands.unsetUpstream(install));
    }
    return outcome.warn(
      'PROXY_UPSTREAM_MISMATCH',
      `${observed}: a relay, not the default for ${auth}`,
      'Only use a relay that supports /v1/messages, SSE streaming and the client\'s authentication header, and answers 200/401/429/5xx faithfully; otherwise unset it.',
      proxyCommands.unsetUpstream(install),
    );
  },
};

/** Evidence from the short real request that the proxy forwards to this service, if it went through it. */
async function reachedService(ctx: DiagnoseContext): Promise<string | undefined> {
  const call = await ctx.messages();
  if ('notSent' in call || call.route !== 'proxy') return undefined;
  // A 404 for /v1/v1/messages reached the service by a wrong path: no proof of a right upstream.
  if (doubledV1(call)) return undefined;
  if (call.answeredBy.kind === 'service' || call.answeredBy.kind === 'provider') {
    const status = call.outcome.kind === 'response' ? call.outcome.status : '?';
    return `the short request through the proxy was answered by the service (${status}${call.answeredBy.kind === 'provider' ? `, upstream provider "${call.answeredBy.name}"` : ''})`;
  }
  return undefined;
}
