import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import type { Socket } from 'node:net';
import { bareHostname, portOf } from './upstream-target.ts';
import { TunnelError, UpstreamTimeoutError } from './upstream-errors.ts';

export interface TunnelOptions {
  proxy: URL;
  target: URL;
  timeoutMs: number;
  ca: Array<string | Buffer> | undefined;
  rejectUnauthorized: boolean;
  signal: AbortSignal;
}

function proxyAuthorization(proxy: URL): string | undefined {
  if (proxy.username === '') return undefined;
  const user = decodeURIComponent(proxy.username);
  const pass = decodeURIComponent(proxy.password);
  return `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
}

/** Asks an HTTP proxy for a raw TCP tunnel to the target (HTTP CONNECT). */
function connectThrough(options: TunnelOptions): Promise<Socket> {
  const { proxy, target, timeoutMs, signal } = options;
  const authority = `${bareHostname(target).includes(':') ? `[${bareHostname(target)}]` : bareHostname(target)}:${portOf(target)}`;
  const headers: Record<string, string> = { host: authority };
  const auth = proxyAuthorization(proxy);
  if (auth) headers['proxy-authorization'] = auth;
  const transport = proxy.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request({
      host: bareHostname(proxy),
      port: portOf(proxy),
      method: 'CONNECT',
      path: authority,
      headers,
      agent: false,
      signal,
    });
    req.setTimeout(timeoutMs, () => req.destroy(new UpstreamTimeoutError(timeoutMs)));
    req.once('connect', (res, socket, head) => {
      req.setTimeout(0);
      if (res.statusCode !== 200) {
        socket.destroy();
        reject(new TunnelError(`proxy ${proxy.host} refused CONNECT ${authority}: HTTP ${res.statusCode ?? '?'}`));
        return;
      }
      if (head.length > 0) socket.unshift(head);
      resolve(socket);
    });
    req.once('error', (error) => reject(error instanceof UpstreamTimeoutError ? error : new TunnelError(`proxy ${proxy.host}: ${error.message}`)));
    req.end();
  });
}

/** A TLS connection to the target inside a CONNECT tunnel, verified against the target's name. */
export async function openTlsTunnel(options: TunnelOptions): Promise<tls.TLSSocket> {
  const raw = await connectThrough(options);
  const servername = bareHostname(options.target);
  return new Promise((resolve, reject) => {
    const secure = tls.connect({
      socket: raw,
      servername: /^[\d.]+$|:/.test(servername) ? undefined : servername,
      host: servername,
      ca: options.ca,
      rejectUnauthorized: options.rejectUnauthorized,
      ALPNProtocols: ['http/1.1'],
    });
    const fail = (error: Error): void => {
      raw.destroy();
      reject(error);
    };
    secure.once('secureConnect', () => {
      secure.off('error', fail);
      resolve(secure);
    });
    secure.once('error', fail);
  });
}
