// Safe start, rules 1, 2 and 9: the proxy route only when GET /health answers 200 {"status":"ok"}
// and client and proxy share the execution plane; otherwise direct to the upstream root, saying why.
import type { HttpGet } from '../client/http-get.ts';
import { probeProxyHealth, type ProxyState } from '../client/proxy-client.ts';
import type { AuthPath } from '../config/client-profile.ts';
import type { ServiceAddress } from '../config/service-address.ts';
import type { CauseCode } from '../doctor/cause-codes.ts';
import type { ExecutionPlane } from './execution-plane.ts';

export interface StartWarning {
  cause: CauseCode;
  message: string;
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
  plane: ExecutionPlane;
  http: HttpGet;
  timeoutMs: number;
}

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export async function decideRoute(input: RouteInput): Promise<RouteDecision> {
  const warnings: StartWarning[] = [];
  const proxyUrl = input.proxyUrl.replace(/(\/v1)+$/, '');
  if (proxyUrl !== input.proxyUrl) warnings.push({ cause: 'URL_DOUBLE_V1', message: `proxyUrl ${input.proxyUrl} ends with /v1; using ${proxyUrl}, since the client appends /v1/messages itself (spec 4.2)` });
  if (input.auth === 'service' && input.service.hadV1) {
    warnings.push({ cause: 'URL_DOUBLE_V1', message: `baseUrl ends with /v1; the messages client's base address is ${input.service.root} without it (spec 4.2), so /v1 was removed` });
  }
  const direct = input.auth === 'service' ? input.service.root : null;
  const directWhere = direct ?? "the client's default upstream";
  const goDirect = (reason: string, proxy: RouteDecision['proxy']): RouteDecision => ({ kind: 'direct', baseUrl: direct, reason: `${reason}; starting directly against ${directWhere}`, proxy, warnings });

  if (input.plane.mismatch) {
    return goDirect(`the proxy route is refused: ${input.plane.observed} (rule 9)`, { url: proxyUrl, state: 'not-probed', observed: 'not probed' });
  }
  if (!isLoopback(proxyUrl)) {
    return goDirect(`proxyUrl ${proxyUrl} is not a loopback address, and the proxy may only listen on 127.0.0.1 (spec 4.4)`, { url: proxyUrl, state: 'not-probed', observed: 'not probed' });
  }
  const health = await probeProxyHealth(input.http, proxyUrl, input.timeoutMs);
  const proxy = { url: proxyUrl, state: health.state, observed: health.observed };
  if (health.state === 'ok') return { kind: 'proxy', baseUrl: proxyUrl, reason: `the proxy is healthy (${health.observed})`, proxy, warnings };
  const why: Record<Exclude<ProxyState, 'ok'>, string> = {
    degraded: 'the proxy is degraded: its request-transform chain is incomplete and must not be used',
    down: 'the proxy does not answer',
    unhealthy: 'the proxy answers, but not 200 {"status":"ok"}',
    foreign: 'something other than the cache proxy answers at that address',
  };
  return goDirect(`${why[health.state]} (${health.observed})`, proxy);
}
