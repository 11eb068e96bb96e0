// Safe start: the proxy route only when GET /health answers 200 {"status":"ok"} and client and
// proxy share the execution plane; otherwise direct to the upstream root, saying why. A proxy left
// unhealthy never strands the client: it starts directly instead.
import type { HttpGet } from '../client/http-get.ts';
import { probeProxyHealth, type ProxyHealth, type ProxyState } from '../client/proxy-client.ts';
import type { AuthPath } from '../config/client-profile.ts';
import type { ClientProtocol } from '../config/client-profiles.ts';
import type { ServiceAddress } from '../config/service-address.ts';
import type { CauseCode } from '../doctor/cause-codes.ts';
import type { ExecutionPlane } from './execution-plane.ts';

export interface StartWarning {
  cause: CauseCode;
  message: string;
  /** A pinned entry that the start itself backs up and removes (listed with the settings changes too). */
  removedByStart?: boolean;
}

export interface RouteDecision {
  kind: 'proxy' | 'direct';
  /** The client's base address; null = leave the variable unset (the client's own default). */
  baseUrl: string | null;
  reason: string;
  proxy: { url: string; state: ProxyState | 'not-probed'; observed: string };
  warnings: StartWarning[];
}

export interface RouteInput {
  proxyUrl: string;
  service: ServiceAddress;
  auth: AuthPath;
  /** Only messages-protocol clients may go through the cache proxy; others always go direct. */
  protocol?: ClientProtocol;
  /** What the client's base address adds to {base_url} ('' or '/v1'). */
  basePath?: '' | '/v1';
  plane: ExecutionPlane;
  http: HttpGet;
  timeoutMs: number;
}

const PROTOCOL_NAMES: Record<ClientProtocol, string> = { messages: 'messages protocol', responses: 'Responses API', gemini: 'Gemini API', chat: 'chat-completions API' };

export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The route from what is known, with the health probe (if one is needed) given as a function. */
export async function routeFor(input: Omit<RouteInput, 'http' | 'timeoutMs'>, health: (proxyUrl: string) => Promise<ProxyHealth>): Promise<RouteDecision> {
  const warnings: StartWarning[] = [];
  const proxyUrl = input.proxyUrl.replace(/(\/v1)+$/, '');
  if (proxyUrl !== input.proxyUrl) warnings.push({ cause: 'URL_DOUBLE_V1', message: `proxyUrl ${input.proxyUrl} ends with /v1; using ${proxyUrl}, since the client appends /v1/messages itself` });
  const protocol = input.protocol ?? 'messages';
  if (input.auth === 'service' && input.service.hadV1 && protocol === 'messages') {
    warnings.push({ cause: 'URL_DOUBLE_V1', message: `baseUrl ends with /v1; the messages client's base address is ${input.service.root} without it (the client appends /v1/messages), so /v1 was removed` });
  }
  const direct = input.auth === 'service' ? `${input.service.root}${input.basePath ?? ''}` : null;
  const directWhere = direct ?? "the client's default upstream";
  const goDirect = (reason: string, proxy: RouteDecision['proxy']): RouteDecision => ({ kind: 'direct', baseUrl: direct, reason: `${reason}; starting directly against ${directWhere}`, proxy, warnings });

  if (protocol !== 'messages') {
    return goDirect(`the cache proxy is for messages-protocol clients, and this client speaks the ${PROTOCOL_NAMES[protocol]}`, { url: proxyUrl, state: 'not-probed', observed: 'not probed' });
  }
  if (input.plane.mismatch) {
    return goDirect(`the proxy route is refused: ${input.plane.observed} (client, runtime, variables and proxy must all run in the same WSL environment)`, { url: proxyUrl, state: 'not-probed', observed: 'not probed' });
  }
  if (!isLoopback(proxyUrl)) {
    return goDirect(`proxyUrl ${proxyUrl} is not a loopback address, and the proxy may only listen on 127.0.0.1`, { url: proxyUrl, state: 'not-probed', observed: 'not probed' });
  }
  const seen = await health(proxyUrl);
  const proxy = { url: proxyUrl, state: seen.state, observed: seen.observed };
  if (seen.state === 'ok') return { kind: 'proxy', baseUrl: proxyUrl, reason: `the proxy is healthy (${seen.observed})`, proxy, warnings };
  const why: Record<Exclude<ProxyState, 'ok'>, string> = {
    degraded: 'the proxy is degraded: its request-transform chain is incomplete and must not be used',
    down: 'the proxy does not answer',
    unhealthy: 'the proxy answers, but not 200 {"status":"ok"}',
    foreign: 'something other than the cache proxy answers at that address',
  };
  return goDirect(`${why[seen.state]} (${seen.observed})`, proxy);
}

export async function decideRoute(input: RouteInput): Promise<RouteDecision> {
  return routeFor(input, (proxyUrl) => probeProxyHealth(input.http, proxyUrl, input.timeoutMs));
}
