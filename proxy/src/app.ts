import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProxyConfig } from './config/proxy-config.ts';
import { openDebugLog, type DebugLog } from './debug/debug-log.ts';
import { redactPath } from './debug/redact-url.ts';
import { ProxyError, errorMessage } from './errors.ts';
import { sendJson } from './forward/json-reply.ts';
import { proxyExchange } from './forward/proxy-exchange.ts';
import { UpstreamClient } from './forward/upstream-client.ts';
import { BUILTIN_EXTENSIONS } from './transforms/builtin-extensions.ts';
import { ExtensionRegistry } from './transforms/registry.ts';
import type { BuiltinExtension, RouteName } from './transforms/types.ts';

export type Route = 'health' | RouteName;

/**
 * Routing is on the pathname; the query (Claude Code sends `?beta=true`) is ignored for the
 * decision and forwarded as is. Only the messages API and Claude Code's bootstrap call are
 * proxied: this is a messages-protocol proxy, not an open relay.
 */
export function routeOf(method: string | undefined, rawUrl: string | undefined): Route | null {
  const url = rawUrl ?? '/';
  const queryAt = url.indexOf('?');
  const pathname = queryAt < 0 ? url : url.slice(0, queryAt);
  if (method === 'GET' && pathname === '/health') return 'health';
  if (method === 'POST' && (pathname === '/v1/messages' || pathname.startsWith('/v1/messages/'))) return 'messages';
  if (pathname.startsWith('/api/claude_cli/bootstrap')) return 'bootstrap';
  return null;
}

export interface ProxyAppOptions {
  builtins?: readonly BuiltinExtension[];
  warn?: (line: string) => void;
  now?: () => Date;
}

export interface ProxyApp {
  readonly config: ProxyConfig;
  readonly registry: ExtensionRegistry;
  readonly server: http.Server;
  listen(): Promise<AddressInfo>;
  close(): Promise<void>;
}

export async function createProxyApp(config: ProxyConfig, options: ProxyAppOptions = {}): Promise<ProxyApp> {
  const warn = options.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
  const now = options.now ?? (() => new Date());
  const upstream = new UpstreamClient(config, warn);
  const registry = new ExtensionRegistry({
    builtins: options.builtins ?? BUILTIN_EXTENSIONS,
    extensionsDir: config.extensionsDir,
    configPath: config.extensionsConfigPath,
    services: { env: config.env, homeDir: config.homeDir, warn, now },
  });
  await registry.load();
  if (config.hotReload) registry.watch();
  const debug: DebugLog = openDebugLog(config.debug, config.debugLogPath, warn);
  const deps = { config, registry, upstream, debug, warn };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const route = routeOf(req.method, req.url);
    if (route === 'health') {
      const health = registry.health();
      sendJson(res, health.status === 'ok' ? 200 : 503, health);
      return;
    }
    if (route === null) {
      req.resume();
      sendJson(res, 404, { error: 'not_found' });
      return;
    }
    await proxyExchange(req, res, route, deps);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      warn(`[proxy] internal error on ${req.method} ${redactPath(req.url)}: ${errorMessage(error)}`);
      debug.write('internal_error', { path: redactPath(req.url), error: errorMessage(error) });
      // The message is not echoed: it could contain request details.
      if (!res.headersSent) sendJson(res, 500, { error: 'internal_proxy_error' });
      else res.destroy();
    });
  });
  // Long generations can pause for minutes between events; the upstream timeout governs those.
  server.requestTimeout = 0;
  server.keepAliveTimeout = 65_000;

  return {
    config,
    registry,
    server,
    listen() {
      return new Promise((resolve, reject) => {
        const onError = (error: NodeJS.ErrnoException): void => {
          server.off('listening', onListening);
          const where = `${config.bind}:${config.port}`;
          if (error.code === 'EADDRINUSE') {
            reject(new ProxyError('port_in_use', `port ${config.port} on ${config.bind} is already in use`, `is another proxy running? check http://${where}/health, or set CACHE_FIX_PROXY_PORT to a free port`));
          } else {
            reject(new ProxyError('listen_failed', `cannot listen on ${where}: ${error.message}`));
          }
        };
        const onListening = (): void => {
          server.off('error', onError);
          resolve(server.address() as AddressInfo);
        };
        server.once('error', onError);
        server.once('listening', onListening);
        server.listen({ port: config.port, host: config.bind });
      });
    },
    async close() {
      await new Promise<void>((resolve) => {
        if (!server.listening) {
          resolve();
          return;
        }
        server.close(() => resolve());
        server.closeIdleConnections();
        // Streams still in flight are cut: close() is called on shutdown, when nobody is waiting for them.
        setTimeout(() => server.closeAllConnections(), 1_000).unref();
      });
      upstream.close();
      await registry.close();
      await debug.close();
    },
  };
}
