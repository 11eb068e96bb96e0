import { createProxyApp, type ProxyApp } from '../app.ts';
import { loadProxyConfig } from '../config/proxy-config.ts';
import { maskUrlCredentials } from '../debug/redact-url.ts';
import type { CliIo } from './cli-io.ts';

const SHUTDOWN_GRACE_MS = 5_000;

export interface RunningServer {
  app: ProxyApp;
  /** Resolves with the exit code once the server has shut down. */
  done: Promise<number>;
  stop(): void;
}

export async function startServer(io: CliIo): Promise<RunningServer> {
  const config = loadProxyConfig(io.env, { packageRoot: io.packageRoot });
  const warn = (line: string): void => io.stderr(`${line}\n`);
  io.stderr(
    config.hotReload
      ? '[cache-fix] hot-reload: on — a re-imported module can be stale; restart the proxy if /health turns degraded\n'
      : '[cache-fix] hot-reload: off (set CACHE_FIX_HOT_RELOAD=on to enable); restart the proxy to pick up changes\n',
  );
  if (config.oauthRefresh) {
    warn('[cache-fix] oauth-refresh: requested, but this build never takes over credential refresh; ~/.claude/.credentials.json is left to the client');
  }
  if (/\/v1$/.test(config.upstream.pathname)) {
    warn(`[cache-fix] CACHE_FIX_PROXY_UPSTREAM ends in /v1 (${maskUrlCredentials(config.upstream)}); requests will go to /v1/v1/messages — use the root address`);
  }
  const app = await createProxyApp(config, { warn });
  let address;
  try {
    address = await app.listen();
  } catch (error) {
    await app.close();
    throw error;
  }
  io.stdout(`proxy listening on ${address.address}:${address.port} -> ${maskUrlCredentials(config.upstream)}\n`);
  let resolveDone: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => {
    resolveDone = resolve;
  });
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    const fallback = setTimeout(() => resolveDone(1), SHUTDOWN_GRACE_MS);
    fallback.unref();
    app.close().then(
      () => {
        clearTimeout(fallback);
        resolveDone(0);
      },
      () => resolveDone(1),
    );
  };
  return { app, done, stop };
}
