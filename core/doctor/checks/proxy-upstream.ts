// The proxy's upstream matches the authentication path. What counts is what the running proxy runs
// with: its own process environment when it can be read, else its installed service definition;
// this shell's CACHE_FIX_PROXY_UPSTREAM is the proxy's only when no proxy runs yet (one started from
// here would take it). When the short real request went through the proxy, its answer decides: an
// answer from this service proves where the proxy forwards to, and a 401 for a key that works
// directly proves it forwards elsewhere. When nothing can be read and nothing proves it, the
// upstream is reported unknown, never guessed from this shell. A machine that does not use the
// optional proxy at all gets no finding.
import { sameAddress } from '../../launch/same-address.ts';
import { tildePath } from '../../paths.ts';
import { outcome } from '../check-result.ts';
import type { Check } from '../check.ts';
import type { DiagnoseContext, UpstreamSetting } from '../diagnose-context.ts';
import { proxyCommands } from '../proxy-commands.ts';
import { proxyInstall } from '../proxy-install.ts';
import { proxyAnsweredItself, proxyForwardFault, statusOf } from '../proxy-forward-fault.ts';
import { proxyUpstreamDefaultOutcome, upstreamKnownDefault } from '../proxy-upstream-default.ts';
import { proxyForwardsToV1, proxyRefusedWorkingKey, reachedService } from '../proxy-route-evidence.ts';

const RULES = 'Regenerate the service definition and restart the proxy from a terminal outside any client session that uses it (never from inside a session that talks through the proxy).';

function describe(up: UpstreamSetting, ctx: DiagnoseContext): string {
  const setting = up.value === undefined ? 'CACHE_FIX_PROXY_UPSTREAM is not set (the built-in default: the official vendor)' : `CACHE_FIX_PROXY_UPSTREAM=${up.value}`;
  if (up.source === 'process') {
    const definition = up.file ? `; its service definition is ${tildePath(up.file, ctx.env)}` : '';
    return `${setting} in the environment of the running proxy (pid ${up.pid})${definition}`;
  }
  if (up.source === 'service-file') {
    const stale = up.shellValue !== undefined && !sameAddress(up.shellValue, up.value) ? ` (this shell has CACHE_FIX_PROXY_UPSTREAM=${up.shellValue}, which the service only picks up after \`cache-fix-proxy install-service --force\`)` : '';
    return `${setting} in ${tildePath(up.file!, ctx.env)}${stale}`;
  }
  return `${setting} in this shell (no service definition installed; a proxy started by hand uses its terminal's variables)`;
}

export const proxyUpstream: Check<DiagnoseContext> = {
  id: 'proxy.upstream',
  clients: ['messages'],
  explains: [401, 403, 404, 502, 503, 504],
  async run(ctx) {
    const use = await ctx.proxyUse();
    if (!use.used) return outcome.skip(use.observed);
    const up = ctx.upstream();
    const health = await ctx.proxyHealth();
    const install = proxyInstall(ctx);
    const root = ctx.service.root;
    const observed = describe(up, ctx);
    const running = health.state === 'ok' || health.state === 'degraded';
    const inUse = running || ctx.proxyMeant();
    const make = inUse ? outcome.fail : outcome.warn;
    // The shell's value is not a running proxy's: that one was started elsewhere.
    const known = up.source !== 'environment' || !running;
    if (ctx.profile.auth === 'service') {
      const remedy = `Set CACHE_FIX_PROXY_UPSTREAM to ${root}; for this service's keys the step must not be omitted. ${RULES}`;
      const commands = proxyCommands.setUpstream(install, root);
      const proof = health.state === 'ok' ? await reachedService(ctx) : undefined;
      if (proof && sameAddress(up.value, root)) return outcome.pass(`${observed}: matches ${root} for this service's key; ${proof}`);
      if (proof && up.source !== 'service-file') return outcome.pass(`${observed}, but ${proof}, so it forwards to this service`);
      if (proof) {
        return outcome.warn(
          up.value === undefined ? 'PROXY_UPSTREAM_DEFAULT' : 'PROXY_UPSTREAM_MISMATCH',
          `${observed}: the running proxy forwards to this service (${proof}), but after a restart it would run with this definition and send this service's key elsewhere`,
          remedy,
          commands,
        );
      }
      const probe = health.state === 'ok' ? await ctx.messages() : undefined;
      const refused = health.state === 'ok' ? await proxyRefusedWorkingKey(ctx) : undefined;
      if (upstreamKnownDefault(ctx)) {
        const effect = refused ? `; ${refused}` : probe && proxyAnsweredItself(probe) ? `; the short request through the proxy got ${statusOf(probe)} from the proxy itself: the default upstream does not answer it here` : '';
        return proxyUpstreamDefaultOutcome(ctx, `${observed}: requests with this service's key bypass the service and answer 401 or reach a wrong account${effect}`, inUse ? 'fail' : 'warn');
      }
      if (probe && proxyAnsweredItself(probe)) {
        const status = statusOf(probe);
        const namesRoot = up.value !== undefined && sameAddress(up.value, root);
        const named = !namesRoot ? '' : up.source === 'process' ? `, although its environment names ${root}: that address does not answer the proxy` : `, although ${up.source === 'service-file' ? 'the definition' : 'the shell'} names ${root}: the running proxy was started with other settings`;
        return proxyForwardFault(`${observed}; the short request through the proxy got ${status} from the proxy itself, not from the service: it forwards to an address that does not answer${named}`, {
          install,
          root,
          baseUrlVar: ctx.profile.baseUrlVar,
          command: ctx.profile.command,
        });
      }
      const doubled = health.state === 'ok' ? await proxyForwardsToV1(ctx) : undefined;
      if (doubled) {
        return outcome.fail('PROXY_UPSTREAM_MISMATCH', `${observed}; ${doubled}: a chat-completions /v1 address; the proxy appends /v1/messages, giving /v1/v1/messages (404)`, remedy, commands);
      }
      if (refused) {
        return outcome.fail('PROXY_UPSTREAM_MISMATCH', `${observed}; ${refused}`, `The key is fine: the proxy forwards it to another upstream or gateway instance than ${root}. ${remedy}`, commands);
      }
      if (!known && up.value !== undefined && !sameAddress(up.value, root)) {
        return outcome.warn(
          'PROXY_UPSTREAM_MISMATCH',
          `the running proxy's upstream cannot be read (no readable process environment, no service definition), but this shell has CACHE_FIX_PROXY_UPSTREAM=${up.value}, not ${root}: a proxy started from this shell sends this service's key elsewhere`,
          remedy,
          commands,
        );
      }
      if (!known) {
        return outcome.skip(
          `unknown: the running proxy's upstream cannot be read (no readable process environment, no service definition${probe && !('notSent' in probe) ? '' : ', and no short request went through it'}); this shell's ${up.value === undefined ? 'unset CACHE_FIX_PROXY_UPSTREAM' : `CACHE_FIX_PROXY_UPSTREAM=${up.value}`} need not be the proxy's. \`gwctl diagnose\` with the short real request tells where it forwards to`,
        );
      }
      if (up.value === undefined) return proxyUpstreamDefaultOutcome(ctx, `${observed}: requests with this service's key bypass the service and answer 401 or reach a wrong account`, inUse ? 'fail' : 'warn');
      if (sameAddress(up.value, root)) return outcome.pass(`${observed}: matches ${root} for this service's key`);
      if (sameAddress(up.value, ctx.proxyUrl)) return make('PROXY_UPSTREAM_MISMATCH', `${observed}: the proxy forwards to itself (a loop)`, remedy, commands);
      if (sameAddress(up.value, `${root}/v1`) || /\/v1\/*$/.test(up.value)) {
        return make('PROXY_UPSTREAM_MISMATCH', `${observed}: a chat-completions /v1 address; the proxy appends /v1/messages, giving /v1/v1/messages (404)`, remedy, commands);
      }
      return make('PROXY_UPSTREAM_MISMATCH', `${observed}: not ${root}, so this service's key is sent to another upstream`, remedy, commands);
    }
    const auth = ctx.profile.auth === 'vendor' ? 'an official vendor key' : 'a subscription login';
    if (!known && up.value !== undefined && sameAddress(up.value, root)) {
      return outcome.warn(
        'PROXY_UPSTREAM_MISMATCH',
        `the running proxy's upstream cannot be read (no readable process environment, no service definition), but this shell has CACHE_FIX_PROXY_UPSTREAM=${up.value}: a proxy started from this shell sends ${auth}'s credential to this service, which does not accept it`,
        `Leave CACHE_FIX_PROXY_UPSTREAM unset for ${auth}: the built-in default is the vendor. ${RULES}`,
        proxyCommands.unsetUpstream(install),
      );
    }
    if (!known) return outcome.skip(`unknown: the running proxy's upstream cannot be read (no readable process environment, no service definition); this shell's setting need not be the proxy's`);
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
