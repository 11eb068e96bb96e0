import http, { type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { ProxyConfig } from '../config/proxy-config.ts';
import { ProxyError, errorMessage } from '../errors.ts';
import { bypassesProxy } from './no-proxy.ts';
import { openTlsTunnel } from './connect-tunnel.ts';
import { bareHostname, pathAndQuery, portOf } from './upstream-target.ts';
import { UpstreamTimeoutError } from './upstream-errors.ts';

export interface UpstreamCall {
  method: string;
  target: URL;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  signal: AbortSignal;
}

export interface UpstreamResponse {
  request: ClientRequest;
  response: IncomingMessage;
}

/**
 * Opens requests to the upstream: pooled keep-alive sockets when direct, a fresh CONNECT tunnel
 * per request behind HTTPS_PROXY, absolute-form requests behind HTTP_PROXY for plain-http
 * upstreams. The timeout is socket inactivity, so a long but live stream never times out.
 */
export class UpstreamClient {
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 256, noDelay: true } as http.AgentOptions);
  private readonly httpsAgent: https.Agent;
  private readonly ca: Array<string | Buffer> | undefined;
  private readonly announced = new Set<string>();

  constructor(
    private readonly config: ProxyConfig,
    private readonly warn: (line: string) => void,
  ) {
    if (config.caFile) {
      let extra: Buffer;
      try {
        extra = readFileSync(config.caFile);
      } catch (error) {
        throw new ProxyError('bad_ca_file', `cannot read CACHE_FIX_PROXY_CA_FILE ${config.caFile}: ${errorMessage(error)}`);
      }
      // Added to the public roots, not instead of them: the corporate CA signs only some hosts.
      this.ca = [...rootCertificates, extra];
    }
    if (!config.rejectUnauthorized) {
      warn('[upstream] CACHE_FIX_PROXY_REJECT_UNAUTHORIZED is off: upstream TLS certificates are NOT verified');
    }
    this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 256, ca: this.ca, rejectUnauthorized: config.rejectUnauthorized });
  }

  private proxyFor(target: URL): URL | undefined {
    const raw = target.protocol === 'https:' ? this.config.httpsProxy : this.config.httpProxy;
    if (!raw || bypassesProxy(target.hostname, portOf(target), this.config.noProxy)) return undefined;
    const proxy = new URL(raw.includes('://') ? raw : `http://${raw}`);
    const key = `${proxy.host}|${target.protocol}`;
    if (!this.announced.has(key)) {
      this.announced.add(key);
      this.warn(`[upstream] using proxy ${proxy.protocol}//${proxy.host} for ${target.protocol.slice(0, -1)} upstream${this.ca ? ' (extra CA loaded)' : ''}`);
    }
    return proxy;
  }

  private async open(call: UpstreamCall): Promise<ClientRequest> {
    const { target, method, headers, signal } = call;
    const proxy = this.proxyFor(target);
    const common = { method, headers, signal };
    if (target.protocol === 'https:') {
      if (!proxy) {
        return https.request({ ...common, host: bareHostname(target), port: portOf(target), path: pathAndQuery(target), agent: this.httpsAgent, servername: bareHostname(target) });
      }
      const socket = await openTlsTunnel({
        proxy,
        target,
        timeoutMs: this.config.timeoutMs,
        ca: this.ca,
        rejectUnauthorized: this.config.rejectUnauthorized,
        signal,
      });
      // No agent at all: with `agent: false` node would build a fresh agent and ignore createConnection.
      return https.request({ ...common, host: bareHostname(target), port: portOf(target), path: pathAndQuery(target), createConnection: () => socket });
    }
    if (!proxy) {
      return http.request({ ...common, host: bareHostname(target), port: portOf(target), path: pathAndQuery(target), agent: this.httpAgent });
    }
    const viaProxy: OutgoingHttpHeaders = { ...headers };
    if (proxy.username !== '') {
      viaProxy['proxy-authorization'] = `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`;
    }
    return http.request({ ...common, headers: viaProxy, host: bareHostname(proxy), port: portOf(proxy), path: target.href, agent: this.httpAgent });
  }

  /** Resolves at the response head; rejects with UpstreamTimeoutError or the network error. */
  async send(call: UpstreamCall): Promise<UpstreamResponse> {
    const request = await this.open(call);
    return new Promise((resolve, reject) => {
      request.setTimeout(this.config.timeoutMs, () => request.destroy(new UpstreamTimeoutError(this.config.timeoutMs)));
      request.once('response', (response) => resolve({ request, response }));
      // Kept for the whole exchange: a timeout mid-stream must not become an unhandled error.
      request.on('error', reject);
      request.end(call.body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
