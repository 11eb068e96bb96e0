// One root cause for a 5xx that the proxy gave itself: it forwards to an address that does not answer
// (a dead port, a wrong host). Every check that sees it (proxy.upstream, messages.request,
// fault.locate) reports this same cause and fix, so the verdict and its evidence agree: point the
// proxy's upstream at the service, reinstall its service definition, restart it.
import { outcome } from './check-result.ts';
import type { CheckOutcome } from './check.ts';
import type { MessagesCall } from './messages-probe.ts';
import { proxyCommands, type ProxyInstall } from './proxy-commands.ts';

/** The short request through the proxy got a 5xx that no service gave (no gateway id, no provider). */
export function proxyAnsweredItself(call: MessagesCall | { notSent: string }): boolean {
  return !('notSent' in call) && call.route === 'proxy' && call.outcome.kind === 'response' && call.outcome.status >= 500 && call.outcome.status !== 529 && call.answeredBy.kind === 'other';
}

/** The status of such an answer, for observations. */
export function statusOf(call: MessagesCall | { notSent: string }): number | '?' {
  return !('notSent' in call) && call.outcome.kind === 'response' ? call.outcome.status : '?';
}

export interface ForwardFaultInput {
  install: ProxyInstall;
  root: string;
  baseUrlVar: string;
  command: string;
}

export function proxyForwardFault(observed: string, input: ForwardFaultInput): CheckOutcome {
  const reinstall = input.install === 'foreground' ? 'start it again from a shell where it is set' : 'reinstall its service definition with `cache-fix-proxy install-service --force`, then restart it';
  return outcome.fail(
    'PROXY_FAULT',
    observed,
    `The proxy forwards to an address that does not answer, so the service never sees the request. Set CACHE_FIX_PROXY_UPSTREAM to ${input.root} and ${reinstall}, from a terminal outside any client session that uses the proxy. A restart alone keeps the wrong address. Until then start the client directly.`,
    [...proxyCommands.setUpstream(input.install, input.root), `${input.baseUrlVar}=${input.root} ${input.command}   # direct, until the proxy is fixed`],
  );
}
