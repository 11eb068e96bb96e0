// Builds the two fastify listeners (text API and image API) from shared dependencies.
// Never listens: start.ts does, and tests use app.inject.
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { GatewayDeps, TrustProxy } from './gateway-deps.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS } from './serve-options.ts';
import './gateway-request.ts';
import { nextRequestId } from './request-ids.ts';
import { registerApiErrorHandling } from './plugins/api-errors.ts';
import { lazySchemaController } from './plugins/lazy-schema-compilers.ts';
import { logRequestLine, registerApiHooks } from './plugins/api-hooks.ts';
import { expectationFailed, rawClientErrorHandler } from './plugins/raw-client-errors.ts';
import { sendFrameworkError } from './plugins/api-errors.ts';
import { registerChatCompletions } from './routes/chat-completions.ts';
import { registerEmbeddings } from './routes/embeddings.ts';
import { registerGemini } from './routes/gemini.ts';
import { registerHealth } from './routes/health.ts';
import { registerImages } from './routes/images.ts';
import { registerMessages } from './routes/messages.ts';
import { registerMetrics } from './routes/metrics.ts';
import { registerModels } from './routes/models.ts';
import { imageNotFound, textNotFound } from './routes/not-found-hints.ts';
import { registerResponsesRetrieve } from './routes/responses-retrieve.ts';
import { registerResponses } from './routes/responses.ts';
import { registerWeb } from './web/web-plugin.ts';
import { webNotFoundPage } from './web/pages/not-found-page.ts';
import { FastLane } from './fast-lane/fast-lane.ts';
import { registerAdminApi } from './admin-api/admin-api-plugin.ts';
import { registerOAuthRoutes } from './sign-in/oauth-routes.ts';
import { registerManagedSettings } from './sign-in/managed-settings-route.ts';

/** A hop count becomes fastify's function form (its types take no number): the nearest `hops` proxies are believed. */
function fastifyTrustProxy(trust: TrustProxy): string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

function baseApp(deps: GatewayDeps): FastifyInstance {
  const requestTimeout = deps.settings.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    // One line per request is written by the onResponse hook below, without query strings.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: deps.settings.bodyLimitBytes,
    // request.ip (login throttling, audit entries) is the client behind trusted reverse proxies only.
    ...(deps.settings.trustProxy !== undefined ? { trustProxy: fastifyTrustProxy(deps.settings.trustProxy) } : {}),
    genReqId: nextRequestId,
    // Each route's schemas are compiled at its first request, not at the start.
    schemaController: lazySchemaController(),
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false, allowUnionTypes: true } },
    // While draining, the API hooks answer 503 in the route's shape (fastify's own would not be).
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // A client that stops sending its request (headers or body) is cut after this; streamed answers are not affected.
    requestTimeout,
    // Node checks those timeouts on an interval (30 s by default): check often enough to honour a short one.
    // Node would answer a missing Host header itself, with an empty body: the API hooks answer it in shape instead.
    http: { headersTimeout: Math.min(60_000, requestTimeout), connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.floor(requestTimeout / 4))), requireHostHeader: false },
    clientErrorHandler: rawClientErrorHandler(nextRequestId),
    frameworkErrors: sendFrameworkError,
  }) as unknown as FastifyInstance;
  app.server.on('checkExpectation', expectationFailed(nextRequestId));
  registerApiHooks(app, deps);
  // One line per request at info level; no hook at all when that level is off.
  if (deps.logger?.isLevelEnabled('info')) app.addHook('onResponse', (request, reply, done) => {
    logRequestLine(request, reply);
    done();
  });
  registerHealth(app, deps);
  return app;
}

export function buildTextApp(deps: GatewayDeps): FastifyInstance {
  const app = baseApp(deps);
  // The hot routes are also answered on node:http, without fastify's per-request pipeline.
  const lane = deps.settings.fastLane === false ? undefined : new FastLane(deps);
  registerApiErrorHandling(app, deps.settings, textNotFound(deps.settings), webNotFoundPage(deps));
  registerMetrics(app, deps, deps.settings.metricsToken);
  registerModels(app, deps, 'text');
  registerChatCompletions(app, deps, lane);
  registerMessages(app, deps, lane);
  registerResponses(app, deps);
  registerResponsesRetrieve(app, deps);
  registerEmbeddings(app, deps);
  registerGemini(app, deps, lane);
  registerWeb(app, deps);
  registerOAuthRoutes(app, deps);
  registerManagedSettings(app, deps);
  registerAdminApi(app, deps);
  if (lane) {
    lane.install(app.server);
    app.decorate('fastLane', lane);
  }
  return app;
}

export function buildImageApp(deps: GatewayDeps): FastifyInstance {
  const app = baseApp(deps);
  registerApiErrorHandling(app, deps.settings, imageNotFound(deps.settings));
  registerModels(app, deps, 'image');
  registerImages(app, deps);
  return app;
}
