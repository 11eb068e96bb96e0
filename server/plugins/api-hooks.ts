// Shared plumbing of the API listeners: per-request state and id, raw JSON bodies,
// key authentication with the per-key rate limit, and usage counting at the end.
import type { FastifyInstance } from 'fastify';
import type { ApiReply, ApiRequest } from '../api-exchange.ts';
import { extractApiKey, extractGeminiKey } from '../auth/credential-parser.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import { surfaceOf } from '../gateway-request.ts';
import { DEFAULT_JSON_MAX_DEPTH } from '../serve-options.ts';
import { exceedsJsonDepth } from './json-depth.ts';
import { budgetHolders, checkExpiry, hasBudgets } from '../limits/key-enforcement.ts';
import { chargeBudgets, checkBudgets } from '../limits/quota-guard.ts';
import { clientSessionId } from '../usage/client-session.ts';
import type { RequestLogEntry } from '../usage/request-log.ts';
import type { UsageEvent } from '../usage/usage-meter.ts';
import { promptChars, tokensFromChars } from '../usage/estimate-tokens.ts';
import { addSupportFields, logUnownedRequest, noteRefusedKey } from '../usage/request-log-support.ts';
import type { AuthContext } from '../auth/key-authenticator.ts';
import { costOf, recordedClasses } from '../usage/request-cost-of.ts';
import { imagesAsked } from '../usage/images-asked.ts';
import { recordRequestUsage } from '../usage/record-usage.ts';
import { queryValue } from '../query-value.ts';

export function registerApiHooks(app: FastifyInstance, deps: GatewayDeps): void {
  app.decorateRequest('gateway', null as never);
  // Hooks take a callback rather than returning a promise: no promise and no microtask per request.
  app.addHook('onRequest', (request, reply, done) => done(beginApiRequest(deps, request, reply)));

  const maxDepth = deps.settings.jsonMaxDepth ?? DEFAULT_JSON_MAX_DEPTH;
  // The APIs take JSON only; anything else answers 415 with what to send.
  app.removeAllContentTypeParsers();
  // Keep the exact bytes: same-protocol upstreams receive the client's body unchanged.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const raw = body as Buffer;
    request.rawBody = raw;
    try {
      done(null, parseJsonBody(raw, maxDepth));
    } catch (error) {
      done(error as GatewayError, undefined);
    }
  });

  // Usage is counted before the answer is written, so that it is in the journal before the client has it.
  app.addHook('onSend', (request, _reply, payload, done) => {
    const settle = request.gateway?.beforeAnswerEnds;
    if (settle === undefined) done(null, payload);
    else settle(() => done(null, payload));
  });
  app.addHook('onResponse', (request, reply, done) => {
    finishApiRequest(deps, request, reply);
    done();
  });
}

/**
 * The start of every API request (fastify's onRequest hook, or the fast lane): its state, id
 * headers, the body budget, the draining check, and what happens if the response closes early.
 * Returns the refusal to answer, if any.
 */
export function beginApiRequest(deps: GatewayDeps, request: ApiRequest, reply: ApiReply): GatewayError | undefined {
  request.gateway = {
    surface: surfaceOf(request.url, request.headers['anthropic-version']),
    inputTokens: 0,
    outputTokens: 0,
    usageRecorded: false,
    beforeAnswerEnds: (end) => {
      const journal = deps.usageJournal;
      if (countBeforeAnswerEnds(deps, request, reply) && journal !== undefined) journal.afterWrite(end);
      else end();
    },
  };
  reply.header('x-request-id', request.id);
  if (request.gateway.surface === 'messages') reply.header('request-id', request.id);
  if (!request.headers.host && request.raw.httpVersion === '1.1') {
    return new GatewayError(400, 'missing_host', 'HTTP/1.1 requests need a Host header; send the address the client connects to.', { headers: { connection: 'close' } });
  }
  const bodyBytes = declaredBodyBytes(request, deps.settings.bodyLimitBytes);
  if (deps.bodyBudget && !deps.bodyBudget.reserve(bodyBytes)) {
    return new GatewayError(503, 'busy_with_large_requests', 'The gateway is busy reading other large requests. Retry in a moment.', { headers: { 'retry-after': '1' } });
  }
  deps.lifecycle?.begin();
  // A response that closes before it finished: the client left, or a shutdown cut it. The
  // upstream call stops, and what reached a provider is counted all the same, with the tokens
  // known at that moment.
  reply.raw.once('close', () => {
    deps.bodyBudget?.release(bodyBytes);
    const state = request.gateway;
    if (!reply.raw.writableFinished) {
      state.abort?.abort();
      if (state.reachedProvider) {
        state.outcome ??= deps.lifecycle?.draining ? 'shutdown_cut' : 'client_aborted';
        recordUsageOnce(deps, request, state.outcomeStatus ?? reply.statusCode, reply.elapsedTime);
        observeRequest(deps, request, reply);
      }
    }
    deps.lifecycle?.end();
  });
  if (deps.lifecycle?.draining) {
    return new GatewayError(503, 'shutting_down', 'The gateway is shutting down and takes no new requests. Retry in a moment.', {
      headers: { 'retry-after': '1', connection: 'close' },
    });
  }
  return undefined;
}

/** A request body as JSON: never empty, nested no deeper than `maxDepth`; throws a GatewayError (400) otherwise. */
export function parseJsonBody(raw: Buffer, maxDepth: number): unknown {
  if (raw.length === 0) throw new GatewayError(400, 'invalid_json', 'The request body is empty; send a JSON object.');
  if (exceedsJsonDepth(raw, maxDepth)) {
    throw new GatewayError(400, 'json_too_deep', `The request body nests deeper than ${maxDepth} levels, the limit for JSON here. Flatten the structure.`);
  }
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new GatewayError(400, 'invalid_json', `The request body is not valid JSON (${(error as Error).message}).`);
  }
}

/**
 * Usage (journal, meter, request log) just before the answer's last bytes are written; true when it
 * was counted now. It runs inside the relay's event handlers, where a failure would end the process:
 * it is logged instead.
 */
function countBeforeAnswerEnds(deps: GatewayDeps, request: ApiRequest, reply: ApiReply): boolean {
  try {
    return recordUsageOnce(deps, request, reply.statusCode, reply.elapsedTime);
  } catch (error) {
    request.log.error({ err: error }, 'counting a finished request failed');
    return false;
  }
}

/** The end of every answered API request: usage, request log and metrics. */
export function finishApiRequest(deps: GatewayDeps, request: ApiRequest, reply: ApiReply): void {
  if (request.gateway?.auth) recordUsageOnce(deps, request, reply.statusCode, reply.elapsedTime);
  else logUnownedRequest(deps, request, reply);
  observeRequest(deps, request, reply);
}

/** The one line per request written at info level: the path without its query (a query string could carry anything). */
export function logRequestLine(request: ApiRequest, reply: ApiReply): void {
  request.log.info(
    { method: request.raw.method, path: request.url.split('?', 1)[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime), key: request.gateway?.auth?.keyId },
    'request',
  );
}

/** One answered (or abandoned) API request in the metrics. */
export function observeRequest(deps: GatewayDeps, request: ApiRequest, reply: ApiReply): void {
  const metrics = deps.metrics;
  const route = request.routeOptions.url;
  if (!metrics || !route || !/^\/v1(beta)?\//.test(route) || request.gateway?.observed) return;
  request.gateway.observed = true;
  const provider = String(reply.getHeader('x-gateway-provider') ?? '');
  const status = request.gateway.outcome ?? String(request.gateway.outcomeStatus ?? reply.statusCode);
  metrics.countRequest(route, status, request.gateway.model ?? '', provider);
  metrics.duration.observe(route, reply.elapsedTime / 1000);
  const overhead = Number(reply.getHeader('x-gateway-overhead-ms'));
  if (Number.isFinite(overhead)) metrics.overhead.observe(route, overhead / 1000);
  const attempts = Number(reply.getHeader('x-gateway-attempts'));
  if (attempts > 1) metrics.retries.inc({ route }, attempts - 1);
}

/** What a request's body will hold in memory: its Content-Length, or the limit when it streams without one. */
function declaredBodyBytes(request: ApiRequest, limit: number): number {
  const length = request.headers['content-length'];
  if (length !== undefined) return Math.min(Number(length) || 0, limit);
  return request.headers['transfer-encoding'] ? limit : 0;
}

/** Counts the request's usage unless it was already; true when it did now. */
export function recordUsageOnce(deps: GatewayDeps, request: ApiRequest, status: number, elapsedMs: number): boolean {
  const state = request.gateway;
  if (!state?.auth || state.usageRecorded) return false;
  state.usageRecorded = true;
  let { inputTokens, outputTokens } = state;
  let estimated = false;
  // A provider's work that ended without its usage report (cut short, or an upstream that sends
  // none) is estimated rather than given away; a refusal (4xx/5xx answered whole) costs nothing.
  // A stream cut short never got its final count (a messages stream's start says 1 output token):
  // what was relayed is the better figure then.
  const billed = !!state.reachedProvider && (state.outcome !== undefined || status < 400);
  if (billed) {
    if (inputTokens === 0) inputTokens = tokensFromChars(promptChars(request.body));
    const relayed = tokensFromChars(state.generatedChars ?? 0);
    if (outputTokens === 0 || state.outcome !== undefined) outputTokens = Math.max(outputTokens, relayed);
    estimated = inputTokens !== state.inputTokens || outputTokens !== state.outputTokens;
  }
  const model = state.model ?? '(none)';
  const at = Date.now();
  const cost = costOf(deps.prices, { model, provider: state.provider, classes: state.usageClasses, inputTokens, outputTokens, estimated, billed, ...imagesAsked(request), at });
  // One object for the journal, the usage meter (which copies the counts) and the owner's request
  // log (an in-memory buffer written in batches).
  const event: UsageEvent & RequestLogEntry = {
    userId: state.auth.userId,
    keyId: state.auth.keyId,
    model,
    status: state.outcomeStatus ?? status,
    inputTokens,
    outputTokens,
    sessionId: clientSessionId(request.headers),
    outcome: state.outcome,
    ...(state.requestedModel ? { requestedModel: state.requestedModel } : {}),
    at,
    latencyMs: elapsedMs,
    costMicros: cost.costMicros,
    costEstimated: cost.costEstimated,
    reachedProvider: !!state.reachedProvider,
    usageClasses: cost.billed ? recordedClasses({ classes: state.usageClasses, inputTokens, outputTokens }) : undefined,
  };
  addSupportFields(event, request, state);
  recordRequestUsage(deps, event);
  if (event.usageClasses) deps.metrics?.countUsage(model, event.usageClasses, cost.costMicros, deps.prices?.currency);
  // Budgets count what reached a provider, like usage; a refusal costs nothing.
  if (state.reachedProvider && hasBudgets(state.auth)) {
    chargeBudgets(deps.budgets, budgetHolders(state.auth), { requests: 1, tokens: inputTokens + outputTokens, cost: cost.costMicros ?? 0 }, (deps.now ?? Date.now)()).catch((error: Error) =>
      request.log.warn({ err: { message: error.message } }, 'budget not charged'),
    );
  }
  return true;
}

function geminiKey(request: ApiRequest): string {
  return extractGeminiKey({ authorization: request.headers.authorization, googApiKey: request.headers['x-goog-api-key'] as string | undefined, queryKey: queryValue(request.url, 'key') });
}

/**
 * Route-level onRequest hook: resolves the key (401, also once it expired), its budgets (429
 * `quota_exceeded`) and its rate limit, the key's own or the default (429 `rate_limit_exceeded`).
 */
export function authenticateWith(deps: GatewayDeps, options: { allowXApiKey: boolean }) {
  return async function authenticate(request: ApiRequest, reply: ApiReply): Promise<void> {
    const key = request.gateway.surface === 'gemini' ? geminiKey(request) : extractApiKey({
      authorization: request.headers.authorization,
      xApiKey: request.headers['x-api-key'] as string | undefined,
      allowXApiKey: options.allowXApiKey || request.gateway.surface === 'messages',
    });
    let auth: AuthContext;
    try {
      auth = await deps.authenticator.authenticate(key);
    } catch (error) {
      if ((error as GatewayError).code === 'invalid_api_key') noteRefusedKey(request.gateway, key);
      throw error;
    }
    request.gateway.auth = auth;
    const now = (deps.now ?? Date.now)();
    checkExpiry(auth, now);
    if (hasBudgets(auth)) await checkBudgets(deps.budgets, budgetHolders(auth), now, deps.prices?.currency);
    const ownLimit = auth.limits.rateLimit ?? undefined;
    if (!deps.rateLimiter.enabled && ownLimit === undefined) return;
    const decision = await deps.rateLimiter.take(auth.keyId, ownLimit);
    const resetSeconds = Math.max(1, Math.ceil(decision.resetMs / 1000));
    reply.header('x-ratelimit-limit-requests', String(decision.limit));
    reply.header('x-ratelimit-remaining-requests', String(decision.remaining));
    reply.header('x-ratelimit-reset-requests', `${resetSeconds}s`);
    if (request.gateway.surface === 'messages') {
      reply.header('anthropic-ratelimit-requests-limit', String(decision.limit));
      reply.header('anthropic-ratelimit-requests-remaining', String(decision.remaining));
      reply.header('anthropic-ratelimit-requests-reset', new Date(Date.now() + decision.resetMs).toISOString());
    }
    if (!decision.allowed) {
      deps.metrics?.rateLimited.inc();
      throw new GatewayError(
        429,
        'rate_limit_exceeded',
        `This key is limited to ${decision.limit} requests per minute. Retry after ${resetSeconds} s.`,
        { headers: { 'retry-after': String(resetSeconds) } },
      );
    }
  };
}
