// The web applications on the text listener ({base_url}): login, keys, usage, chat, images,
// operators. Registered as an encapsulated context so its form parser, static files and HTML
// error pages never reach the API routes.
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import type { FastifyError, FastifyInstance } from 'fastify';
import { GatewayError } from '../errors/gateway-error.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import { registerChatApi } from './api/chat-api.ts';
import { registerConversationsApi } from './api/conversations-api.ts';
import { registerImagesApi } from './api/images-api.ts';
import { registerKeysApi } from './api/keys-api.ts';
import { registerModelsApi } from './api/models-api.ts';
import { html } from './html.ts';
import { layout } from './layout.ts';
import { registerAccountPage } from './pages/account-page.ts';
import { registerAdminPages } from './pages/admin.ts';
import { registerChatPage } from './pages/chat-page.ts';
import { registerImagesPage } from './pages/images-page.ts';
import { registerKeysPages } from './pages/keys.ts';
import { registerLogin } from './pages/login.ts';
import { registerUsagePage } from './pages/usage.ts';
import { registerDevicePage } from './pages/device-page.ts';
import { registerOidcLogin } from './pages/oidc-login.ts';
import { checkRepeatedParameters } from './repeated-parameters.ts';
import { setSecurityHeaders, webErrorStatus } from './security-headers.ts';
import { LoginLimiter } from './session/login-limiter.ts';
import { loadSession } from './session/web-session.ts';

const ASSETS_DIR = fileURLToPath(new URL('./assets/', import.meta.url));
// The browser bundles of client/ (scripts/build/build-web.mjs). From the sources, from dist/ and
// from an installed package alike, this file's URL is server/web/web-plugin.ts of the checkout or
// package, so dist/web/ is two folders up.
const SCRIPTS_DIR = fileURLToPath(new URL('../../dist/web/', import.meta.url));

export function registerWeb(app: FastifyInstance, deps: GatewayDeps): void {
  app.register(async (web) => {
    await web.register(fastifyCookie);
    await web.register(fastifyFormbody);
    await web.register(fastifyStatic, { root: ASSETS_DIR, prefix: '/assets/', cacheControl: true, maxAge: '1h' });
    // Revalidated on every load (ETag): entry names are fixed while their chunks' names change with
    // each build, so a cached entry of an older version would ask for chunks that are gone.
    await web.register(fastifyStatic, { root: SCRIPTS_DIR, prefix: '/assets/js/', decorateReply: false, cacheControl: true, maxAge: 0 });

    web.addHook('onRequest', async (request) => checkRepeatedParameters(request.query));
    web.addHook('onSend', async (request, reply, payload) => {
      setSecurityHeaders(deps.settings, request, reply);
      return payload;
    });

    web.setErrorHandler((error: FastifyError, request, reply) => {
      // The API hooks that run first refuse with a GatewayError (its status, e.g. 400 for a missing Host header).
      const status = webErrorStatus(error);
      if (status === 500) request.log.error({ err: error }, 'web request failed');
      const headers = (error as { options?: { headers?: Record<string, string> } }).options?.headers;
      if (status !== 500 && headers) reply.headers(headers);
      const message =
        status === 500
          ? 'Something went wrong on our side. Try again; if it persists, tell the operator the request id ' + request.id + '.'
          : error.validation
            ? `Check the form: ${error.validation[0]?.instancePath.replace(/^\//, '') || 'input'} ${error.validation[0]?.message ?? 'is invalid'}.`
            : error.message;
      if (error instanceof GatewayError) for (const [name, value] of Object.entries(error.options.headers ?? {})) reply.header(name, value);
      if (request.url.startsWith('/web/api/')) return reply.code(status).send({ error: { message } });
      return reply
        .code(status)
        .type('text/html; charset=utf-8')
        .send(layout({ title: 'Error', user: request.webUser, csrfToken: request.webSession?.csrfToken, body: html`<section class="card narrow"><h1>Error</h1><p>${message}</p></section>` }));
    });

    // Browsers ask for /favicon.ico on their own (pages that are not ours, e.g. a JSON answer).
    web.get('/favicon.ico', (_request, reply) => reply.sendFile('favicon.svg'));

    web.get('/', async (request, reply) => {
      await loadSession(deps, request);
      return reply.redirect(request.webUser ? '/apps/chat' : '/login', 302);
    });

    registerLogin(web, deps, deps.loginLimiter ?? new LoginLimiter());
    if (deps.oidc) registerOidcLogin(web, deps, deps.oidc);
    registerKeysPages(web, deps);
    registerUsagePage(web, deps);
    registerChatPage(web, deps);
    registerImagesPage(web, deps);
    registerAdminPages(web, deps);
    registerAccountPage(web, deps);
    registerDevicePage(web, deps);
    registerKeysApi(web, deps);
    registerModelsApi(web, deps);
    registerConversationsApi(web, deps);
    registerChatApi(web, deps);
    registerImagesApi(web, deps);
  });
}
