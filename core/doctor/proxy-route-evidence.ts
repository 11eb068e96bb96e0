// What the short real request through the proxy proves about where the proxy forwards to: an answer
// of this service (not a 401 for a key that works directly, not a 404 for /v1/v1) proves it reaches
// this service; a 401 for a key that the service accepts directly proves it forwards elsewhere.
import type { DiagnoseContext } from './diagnose-context.ts';
import { doubledV1 } from './messages-probe.ts';

async function directWorks(ctx: DiagnoseContext): Promise<boolean> {
  const direct = await ctx.direct();
  return direct?.outcome.kind === 'response' && direct.outcome.status === 200;
}

/** Evidence that the proxy forwards to this service, if the short request went through it. */
export async function reachedService(ctx: DiagnoseContext): Promise<string | undefined> {
  const call = await ctx.messages();
  if ('notSent' in call || call.route !== 'proxy' || call.outcome.kind !== 'response') return undefined;
  // A 404 for /v1/v1/messages reached the service by a wrong path: no proof of a right upstream.
  if (doubledV1(call)) return undefined;
  // Another instance of the gateway answers like this one: a 401 for a key valid here is not from here.
  if (call.outcome.status === 401 && (await directWorks(ctx))) return undefined;
  if (call.answeredBy.kind === 'service' || call.answeredBy.kind === 'provider') {
    return `the short request through the proxy was answered by the service (${call.outcome.status}${call.answeredBy.kind === 'provider' ? `, upstream provider "${call.answeredBy.name}"` : ''})`;
  }
  return undefined;
}

/** Evidence that the proxy forwards elsewhere: through it the key is refused (401), directly it works. */
export async function proxyRefusedWorkingKey(ctx: DiagnoseContext): Promise<string | undefined> {
  const call = await ctx.messages();
  if ('notSent' in call || call.route !== 'proxy' || call.outcome.kind !== 'response' || call.outcome.status !== 401) return undefined;
  if (!(await directWorks(ctx))) return undefined;
  const who = call.answeredBy.kind === 'service' || call.answeredBy.kind === 'provider' ? 'by a gateway that is not the one configured' : 'by whatever the proxy forwards to';
  return `the short request through the proxy was refused with 401 ${who}, while the same key works directly against ${ctx.service.root}`;
}

/** Evidence that the proxy forwards to an address ending in /v1: through it the service answered 404 for /v1/v1/messages. */
export async function proxyForwardsToV1(ctx: DiagnoseContext): Promise<string | undefined> {
  const call = await ctx.messages();
  if ('notSent' in call || call.route !== 'proxy' || !doubledV1(call)) return undefined;
  return 'the short request through the proxy reached the service as /v1/v1/messages (404), so the proxy forwards to an address ending in /v1';
}
