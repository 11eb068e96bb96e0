// Starts the gateway: store, admin bootstrap, providers, both listeners; and stops it
// gracefully (stop accepting, drain in-flight requests and streams, flush usage).
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import { REDACTED_HEADER_NAMES } from '../core/redact.ts';
import { buildImageApp, buildTextApp } from './app.ts';
import { bootstrapAdmin, type BootstrapResult } from './bootstrap-admin.ts';
import { loadGatewayFile, type GatewayFileConfig } from './config/gateway-file.ts';
import { ConfigError } from './errors/config-error.ts';
import type { GatewayDeps } from './gateway-deps.ts';
import { buildSharedParts } from './cluster/shared-parts.ts';
import { OidcProviderClient } from './oidc/oidc-provider-client.ts';
import { readManagedSettings } from './sign-in/read-managed-settings.ts';
import { Lifecycle } from './lifecycle.ts';
import { DemoProvider } from './providers/demo/demo-provider.ts';
import { EMBEDDED_ALIASES } from './providers/model-aliases.ts';
import { buildProviders, ModelRouter } from './providers/model-router.ts';
import { servedModelIds } from './limits/account-bound.ts';
import { onDroppedFeature } from './providers/cloud-claude/dropped-features.ts';
import { BodyBudget } from './limits/body-budget.ts';
import { DEFAULT_BODY_LIMIT_BYTES, DEFAULT_INFLIGHT_BODY_BYTES, DEFAULT_RATE_LIMIT_RPM, type ServeOptions } from './serve-options.ts';
import { Store } from './store/store.ts';
import { UsageMeter } from './usage/usage-meter.ts';
import { openPriceBook } from './pricing/open-price-book.ts';
import { RequestLog } from './usage/request-log.ts';
import { journalInstanceName, startUsageJournal, usageJournalDir, type StartedJournal } from './usage/start-usage-journal.ts';
import { prettyDestination } from './pretty-log.ts';
import { settleAfterStart } from './settle-after-start.ts';

export interface RunningGateway {
  textUrl: string;
  imageUrl: string;
  publicUrl: string;
  publicImageUrl: string;
  admin: BootstrapResult;
  deps: GatewayDeps;
  stop(): Promise<void>;
}

function listenUrl(app: FastifyInstance, host: string): string {
  const address = app.server.address() as AddressInfo;
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${address.port}`;
}

export type LogFormat = 'pretty' | 'json';

/** Logs go to stderr: JSON lines, or one readable line per entry (`pretty`, for a person at a terminal). */
export function createLogger(level: string, format: LogFormat = 'json'): Logger {
  const options = { level, redact: { paths: REDACTED_HEADER_NAMES.map((h) => `req.headers["${h}"]`), censor: '[redacted]' } };
  return format === 'pretty' ? pino(options, prettyDestination()) : pino(options, pino.destination({ fd: 2, sync: false }));
}

export async function startGateway(options: ServeOptions, env: NodeJS.ProcessEnv = process.env, logger?: Logger): Promise<RunningGateway> {
  const fileConfig: GatewayFileConfig | undefined = options.configFile ? loadGatewayFile(options.configFile) : undefined;
  const router = fileConfig
    ? new ModelRouter(buildProviders(fileConfig.providers, env), { aliases: fileConfig.aliases })
    : new ModelRouter([new DemoProvider()], { aliases: EMBEDDED_ALIASES });
  onDroppedFeature((dropped) => logger?.warn({ provider: dropped.provider, [dropped.kind]: dropped.name }, `dropped ${dropped.kind} "${dropped.name}" on the way to provider "${dropped.provider}", which does not accept it`));
  const store = await Store.open(options.databaseUrl, { poolSize: options.dbPoolSize, statementTimeoutMs: options.dbStatementTimeoutMs });
  const admin = await bootstrapAdmin(store, env);
  // For the command line, which has no router: `gwctl admin key create --models` checks against it.
  await store.servedModels.announce(journalInstanceName(options.instanceName), servedModelIds(router));
  const usage = new UsageMeter(store.usage);
  const requestLog = new RequestLog(store.requestLog);
  // Before anything listens: usage that a killed earlier run had only in its journal goes in now.
  let started: StartedJournal;
  try {
    started = await startUsageJournal(usageJournalDir(options.dataDir, options.instanceName), store, usage, requestLog);
  } catch (error) {
    await store.close();
    throw error;
  }
  const { journal, replayed } = started;
  if (replayed.usage > 0 || replayed.requestLog > 0 || journal.unreadableLines > 0) {
    logger?.warn({ usage: replayed.usage, requestLog: replayed.requestLog, unreadableLines: journal.unreadableLines, journal: journal.dir }, 'usage journal replayed: the last run ended without flushing its usage');
  }
  const shared = await buildSharedParts(
    store,
    router,
    { databaseUrl: options.databaseUrl, redisUrl: options.redisUrl, redisPrefix: options.redisPrefix, requestsPerMinute: options.rateLimitRpm ?? fileConfig?.limits.requestsPerMinute ?? DEFAULT_RATE_LIMIT_RPM, fileGroups: fileConfig?.groups },
    logger,
  );
  usage.start(options.usageFlushMs);
  const prices = await openPriceBook(fileConfig?.prices ?? [], store, router, logger);
  prices.start(options.usageFlushMs);
  requestLog.start(options.usageFlushMs);

  const settings = {
    publicUrl: '',
    publicImageUrl: '',
    bodyLimitBytes: options.bodyLimitBytes ?? fileConfig?.limits.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    requestTimeoutMs: options.requestTimeoutMs,
    jsonMaxDepth: options.jsonMaxDepth,
    metricsToken: options.metricsToken,
    trustProxy: options.trustProxy,
    hstsMaxAge: options.hstsMaxAge,
    maxKeysPerUser: options.maxKeysPerUser,
    sessionIdleMs: options.sessionIdleMs,
    localPasswords: options.localPasswords,
    accessTokenTtlSeconds: options.accessTokenTtlSeconds,
    ...(options.claudeManagedSettingsFile ? { claudeManagedSettings: readManagedSettings(options.claudeManagedSettingsFile) } : {}),
  };
  const lifecycle = new Lifecycle();
  const deps: GatewayDeps = {
    lifecycle,
    bodyBudget: new BodyBudget(options.inflightBodyBytes ?? DEFAULT_INFLIGHT_BODY_BYTES),
    store,
    authenticator: shared.authenticator,
    cluster: shared.cluster,
    loginLimiter: shared.loginLimiter,
    attemptLog: shared.attemptLog,
    router,
    rateLimiter: shared.rateLimiter,
    budgets: shared.budgets,
    usage,
    prices,
    requestLog,
    usageJournal: journal,
    settings,
    logger,
    ...(options.oidc ? { oidc: new OidcProviderClient(options.oidc) } : {}),
  };
  // Only with a metrics token: without one /metrics is off, and prom-client (with its dependencies,
  // about 90 modules) is never loaded, which keeps the idle gateway smaller.
  if (options.metricsToken) {
    const { GatewayMetrics } = await import('./metrics/gateway-metrics.ts');
    deps.metrics = new GatewayMetrics({
      pendingUsageBuckets: () => usage.pendingBuckets,
      usageFlushFailures: () => usage.flushFailures,
      requestLog: () => ({ buffered: requestLog.buffered, dropped: requestLog.dropped }),
      usageJournal: () => ({ segments: journal.segments, appendFailures: journal.appendFailures }),
      databaseKeyLookups: () => shared.authenticator.databaseLookups,
      openResponses: () => lifecycle.openResponses,
      providersCooling: () => router.providers.map((p) => ({ provider: p.name, cooling: router.health.state(p.name) === 'cooling' })),
    });
  }
  router.health.observe((verdict) => {
    if (verdict.kind === 'failure') deps.metrics?.upstreamFailures.inc({ provider: verdict.provider });
  });
  const text = buildTextApp(deps);
  const image = buildImageApp(deps);
  try {
    await text.listen({ host: options.host, port: options.port });
    await image.listen({ host: options.host, port: options.imagePort });
  } catch (error) {
    await Promise.allSettled([text.close(), image.close()]);
    await usage.stop();
    await requestLog.stop().catch(() => undefined);
    journal.close();
    await shared.close();
    await store.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new ConfigError('listen_failed', `Cannot listen on ${options.host}: ${(error as Error).message}.`, 'Choose other ports with --port / --image-port, or stop the process that holds them.');
    }
    throw error;
  }
  const textUrl = listenUrl(text, options.host);
  const imageUrl = listenUrl(image, options.host);
  settings.publicUrl = (options.publicUrl ?? textUrl).replace(/\/+$/, '');
  settings.publicImageUrl = (options.publicImageUrl ?? imageUrl).replace(/\/+$/, '');
  const cancelSettle = settleAfterStart(lifecycle);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      // Not ready first, so load balancers move traffic away, while requests are still served.
      lifecycle.notReady = true;
      cancelSettle();
      if (options.shutdownGraceMs) await new Promise((resolve) => setTimeout(resolve, options.shutdownGraceMs));
      lifecycle.draining = true;
      const closing = Promise.allSettled([text.close(), image.close()]);
      // A request in flight at the signal leaves a keep-alive connection behind when it finishes;
      // close such connections as they go idle, so the drain ends with the last request instead of
      // waiting for the client or the drain bound.
      const sweeper = setInterval(() => {
        text.server.closeIdleConnections();
        image.server.closeIdleConnections();
      }, 50);
      const timer = setTimeout(() => {
        text.server.closeAllConnections();
        image.server.closeAllConnections();
      }, options.drainMs);
      await closing;
      // Responses report their usage from their 'close' events, which can come after the listeners'
      // close: wait for the last of them (the drain bound still cuts what runs past it).
      await lifecycle.whenIdle(options.drainMs + 1_000);
      clearInterval(sweeper);
      clearTimeout(timer);
      prices.stop();
      await usage.stop().catch((error) => logger?.error({ err: error }, 'usage flush failed at shutdown'));
      await requestLog.stop().catch((error) => logger?.error({ err: error }, 'request log flush failed at shutdown'));
      // What could not be flushed stays in the journal for the next start.
      journal.close();
      await router.close();
      await shared.close();
      await store.close();
    })();
    return stopping;
  };
  return { textUrl, imageUrl, publicUrl: settings.publicUrl, publicImageUrl: settings.publicImageUrl, admin, deps, stop };
}
