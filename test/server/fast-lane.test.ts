// The fast lane (server/fast-lane/) answers the hot API routes on node:http without fastify's
// per-request pipeline; these tests hold it to fastify's answers. One set of deps, two text apps
// built from it (fastLane on, fastLane off), both listening on loopback: every request of a corpus
// goes to both over real HTTP, and status, headers, body, what the upstream received, usage,
// metrics and the request log line must match once the per-request values (request ids, the
// overhead figure, dates, demo ids) are normalised. The lane's `served` counter says which side of
// the fork each request took: +1 for the plain JSON requests of the hot routes, +0 for fallbacks.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { inspect } from 'node:util';
import { after, before, describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import type { FastifyInstance } from 'fastify';
import OpenAI from 'openai';
import pino from 'pino';
import { buildTextApp } from '../../server/app.ts';
import { KeyAuthenticator } from '../../server/auth/key-authenticator.ts';
import type { GatewayDeps } from '../../server/gateway-deps.ts';
import { Lifecycle } from '../../server/lifecycle.ts';
import { BodyBudget } from '../../server/limits/body-budget.ts';
import { MemoryBudgetCounter } from '../../server/limits/budget-counter.ts';
import { NO_LIMITS } from '../../server/limits/key-limits.ts';
import { RateLimiter } from '../../server/limits/rate-limiter.ts';
import { GatewayMetrics } from '../../server/metrics/gateway-metrics.ts';
import { AnthropicProvider } from '../../server/providers/anthropic/anthropic-provider.ts';
import { DemoProvider } from '../../server/providers/demo/demo-provider.ts';
import { ModelRouter } from '../../server/providers/model-router.ts';
import { OpenAiProvider } from '../../server/providers/openai/openai-provider.ts';
import type { RoutingSettings } from '../../server/providers/provider.ts';
import { DEFAULT_JSON_MAX_DEPTH } from '../../server/serve-options.ts';
import { Store } from '../../server/store/store.ts';
import type { RequestLog, RequestLogEntry } from '../../server/usage/request-log.ts';
import { UsageMeter, type UsageEvent } from '../../server/usage/usage-meter.ts';
import { closedPort, FakeUpstream, jsonReply, rawReply, sseReply, type Handler, type RecordedRequest } from '../helpers/fake-upstream.ts';
import { chatError, chatFrames, chatJson, messagesError, messagesFrames, messagesJson } from '../helpers/translation/protocol-frames.ts';
import { waitFor } from '../helpers/wait-for.ts';

// ---------------------------------------------------------------------------------------------
// The gateway pair

type KeyName = 'main' | 'models' | 'rate-chat' | 'rate-msgs';
type SideLabel = 'lane' | 'fastify';

interface Side {
  label: SideLabel;
  app: FastifyInstance;
  port: number;
  origin: string;
  userId: string;
  keys: Record<KeyName, { key: string; keyId: string }>;
}

interface Pair {
  lane: Side;
  fastify: Side;
}

/** No retries and no cool-down: a failure on one side must not change how the other is routed. */
const NO_RETRY: RoutingSettings = { retries: 0, cooldownAfterFailures: 1_000_000, cooldownMs: 1 };
const ONE_RETRY: RoutingSettings = { retries: 1, cooldownAfterFailures: 1_000_000, cooldownMs: 1 };
const BODY_LIMIT = 256 * 1024;
/** The rate-limited pair's clock: every window is a fresh minute, so reset figures are exact. */
const RATE_CLOCK = Date.UTC(2030, 0, 1, 12, 0, 0);

const laneServed = (app: FastifyInstance): number | undefined => (app as unknown as { fastLane?: { served: number } }).fastLane?.served;

// ---------------------------------------------------------------------------------------------
// Requests and what came back

interface Req {
  method?: string;
  path: string;
  /** Which of the side's keys to send (default main); null sends none. */
  key?: KeyName | null;
  /** How the key travels (default bearer). */
  via?: 'bearer' | 'x-api-key';
  /** A literal Authorization header instead of the side's key (malformed or unknown keys). */
  authorization?: string;
  headers?: Record<string, string>;
  /** Serialised with JSON.stringify. */
  json?: unknown;
  /** Body bytes as they are. */
  raw?: string | Buffer;
  /** Default application/json when there is a body; null sends no Content-Type. */
  contentType?: string | null;
  /** Sent in two chunks without Content-Length (Transfer-Encoding: chunked). */
  chunked?: boolean;
  /** No Host header. */
  noHost?: boolean;
  /** Sent while the gateway drains (after a stop signal). */
  draining?: boolean;
}

interface Case extends Req {
  name: string;
  /** The status both must answer (checked too, so that two equally broken answers do not pass). */
  status: number;
  /** Whether the lane answers it itself (served +1) or hands it to fastify (+0). */
  lane: boolean;
  pair?: 'main' | 'rate';
  openai?: Handler;
  anthropic?: Handler;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const HOT_PATHS = new Set(['/v1/chat/completions', '/v1/messages', '/v1/messages/count_tokens']);
/** The Gemini generation route, matched by its prefix: /v1beta/models/{model}:{method}. */
const GEMINI_PATH = /^\/v1beta\/models\/[^/]+$/;

function decodedPath(path: string): string {
  const bare = path.split('?', 1)[0]!;
  try {
    return decodeURIComponent(bare);
  } catch {
    return bare;
  }
}

const keepAlive = new Agent({ keepAlive: true, maxSockets: 4 });

function send(side: Side, req: Req): Promise<Answer> {
  const headers: Record<string, string> = {};
  const body = req.raw !== undefined ? Buffer.from(req.raw) : req.json !== undefined ? Buffer.from(JSON.stringify(req.json)) : undefined;
  if (body !== undefined) {
    if (req.contentType !== null) headers['content-type'] = req.contentType ?? 'application/json';
    if (!req.chunked) headers['content-length'] = String(body.length);
  }
  if (req.authorization !== undefined) headers.authorization = req.authorization;
  else if (req.key !== null) {
    const key = side.keys[req.key ?? 'main'].key;
    if (req.via === 'x-api-key') headers['x-api-key'] = key;
    else headers.authorization = `Bearer ${key}`;
  }
  Object.assign(headers, req.headers);
  return new Promise<Answer>((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port: side.port, method: req.method ?? 'POST', path: req.path, headers, setHost: !req.noHost, agent: req.noHost ? false : keepAlive },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    outgoing.on('error', reject);
    if (body === undefined) outgoing.end();
    else if (req.chunked) {
      outgoing.write(body.subarray(0, Math.floor(body.length / 2)));
      outgoing.end(body.subarray(Math.floor(body.length / 2)));
    } else outgoing.end(body);
  });
}

// ---------------------------------------------------------------------------------------------
// Normalising what differs per request

const REQUEST_ID = /^req_[A-Za-z0-9]{10}[0-9a-z]{6}$/;

function normaliseText(text: string, requestId: string | undefined): string {
  let out = requestId ? text.split(requestId).join('<request-id>') : text;
  // The demo model's ids are random; timestamps come from the clock.
  out = out.replace(/chatcmpl-[A-Za-z0-9]{24}/g, 'chatcmpl-<demo>').replace(/msg_[A-Za-z0-9]{24}/g, 'msg_<demo>');
  out = out.replace(/"created":\s*\d+/g, '"created":"<time>"');
  return out;
}

function normaliseHeaders(headers: IncomingHttpHeaders, requestId: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(headers).sort()) {
    const raw = headers[name];
    let value = Array.isArray(raw) ? raw.join(', ') : String(raw);
    if (name === 'date' || name === 'keep-alive') continue;
    if (name === 'connection' && value.toLowerCase() === 'keep-alive') continue;
    if (name === 'x-gateway-overhead-ms') value = /^\d+\.\d\d$/.test(value) ? '<ms>' : `<not a figure: ${value}>`;
    if (/^anthropic-ratelimit-.*-reset$/.test(name) && /^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(value)) value = '<iso time>';
    if (requestId) value = value.split(requestId).join('<request-id>');
    out[name] = value;
  }
  return out;
}

function normaliseBody(answer: Answer, requestId: string | undefined): unknown {
  const text = normaliseText(answer.body, requestId);
  if (String(answer.headers['content-type'] ?? '').includes('application/json')) {
    try {
      return JSON.parse(text);
    } catch {
      return { unparsableJson: text };
    }
  }
  return text;
}

function normaliseUpstream(request: RecordedRequest): unknown {
  const headers: Record<string, string> = {};
  for (const name of Object.keys(request.headers).sort()) {
    if (name === 'host' || name === 'connection' || name === 'keep-alive') continue;
    headers[name] = String(request.headers[name]);
  }
  return { method: request.method, path: request.path, headers, body: request.body.toString('utf8') };
}

// ---------------------------------------------------------------------------------------------
// Corpus helpers

const prompt = [{ role: 'user', content: 'Say hello' }];
const chat = (model: string, extra: Record<string, unknown> = {}) => ({ model, messages: prompt, ...extra });
const msgs = (model: string, extra: Record<string, unknown> = {}) => ({ model, max_tokens: 64, messages: prompt, ...extra });
const CHAT = '/v1/chat/completions';
const MESSAGES = '/v1/messages';
const COUNT = '/v1/messages/count_tokens';

/** A body nesting `depth` levels deep (object, messages array, message object, then arrays). */
function nested(model: string, depth: number): string {
  const arrays = depth - 3;
  return `{"model":"${model}","messages":[{"role":"user","content":"x","meta":${'['.repeat(arrays)}${']'.repeat(arrays)}}]}`;
}

// The upstreams' usual answers: fixed ids, usage, and the headers the gateway relays.
const OPENAI_HEADERS = { 'x-request-id': 'up-req-1', 'x-ratelimit-limit-requests': '100', 'x-ratelimit-remaining-requests': '99', 'openai-processing-ms': '12' };
const ANTHROPIC_HEADERS = { 'request-id': 'req_upstream_1', 'anthropic-ratelimit-requests-limit': '50', 'anthropic-ratelimit-requests-remaining': '49', 'anthropic-ratelimit-requests-reset': '2030-01-01T00:00:00Z' };

const openaiDefault: Handler = (req) => {
  if (!req.path.startsWith('/v1/chat/completions')) return jsonReply(404, chatError(`no route ${req.path}`, 'invalid_request_error'));
  const body = req.json();
  if (body.stream) return sseReply(chatFrames(body.model, ['Hel', 'lo', ' there'], { input: 5, output: 3 }), { headers: OPENAI_HEADERS });
  return jsonReply(200, chatJson(body.model, 'Hello there', { input: 5, output: 3 }), OPENAI_HEADERS);
};

const anthropicDefault: Handler = (req) => {
  if (req.path.startsWith('/v1/messages/count_tokens')) return jsonReply(200, { input_tokens: 11 }, ANTHROPIC_HEADERS);
  if (!req.path.startsWith('/v1/messages')) return jsonReply(404, messagesError('not_found_error', `no route ${req.path}`));
  const body = req.json();
  if (body.stream) return sseReply(messagesFrames(body.model, ['Hel', 'lo', ' there'], { input: 7, output: 4 }), { headers: ANTHROPIC_HEADERS });
  return jsonReply(200, messagesJson(body.model, 'Hello there', { input: 7, output: 4 }), ANTHROPIC_HEADERS);
};

/** Streams that start well and then the upstream cuts the connection. */
const openaiCut: Handler = (req) => sseReply(chatFrames(req.json().model, ['Hel', 'lo'], { input: 5, output: 2 }).slice(0, 3), { then: 'destroy', headers: OPENAI_HEADERS });
const anthropicCut: Handler = (req) => sseReply(messagesFrames(req.json().model, ['Hel', 'lo'], { input: 7, output: 2 }).slice(0, 4), { then: 'destroy', headers: ANTHROPIC_HEADERS });

// ---------------------------------------------------------------------------------------------

describe('the fast lane answers the hot routes exactly as fastify does', () => {
  let dataDir: string;
  let store: Store;
  let router: ModelRouter;
  let deps: GatewayDeps;
  let openaiUp: FakeUpstream;
  let anthropicUp: FakeUpstream;
  const apps: FastifyInstance[] = [];
  const pairs = {} as Record<'main' | 'rate', Pair>;
  const usageEvents: UsageEvent[] = [];
  const requestLogEntries: Array<UsageEvent & RequestLogEntry> = [];
  const SUPPORT_VIEW = ['method', 'path', 'protocol', 'errorCode', 'errorMessage', 'keyHint', 'provider', 'upstreamStatus', 'upstreamRequestId', 'attempts'] as const;
  const logLines: Array<Record<string, unknown>> = [];
  let metrics: GatewayMetrics;
  let lifecycle: Lifecycle;
  let bodyBudget: BodyBudget;
  /** keyId -> name, userId -> side, for usage and log lines. */
  const keyNames = new Map<string, string>();
  const userSides = new Map<string, SideLabel>();

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gwctl-fast-lane-'));
    store = await Store.open(`sqlite://${join(dataDir, 'gateway.db')}`);
    [openaiUp, anthropicUp] = await Promise.all([FakeUpstream.start(), FakeUpstream.start()]);
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const model = (id: string, upstreamModel = `${id}-up`) => ({ id, upstreamModel, kind: 'text' as const, created: 0 });
    router = new ModelRouter([
      new DemoProvider({ chunkDelayMs: 0 }),
      new OpenAiProvider({ name: 'oa', baseUrl: `${openaiUp.url}/v1`, apiKey: 'sk-upstream-oa', timeoutMs: 10_000, routing: NO_RETRY, models: [model('oa-chat'), model('oa-raw', 'oa-raw')] }),
      new OpenAiProvider({ name: 'oa-retry', baseUrl: `${openaiUp.url}/v1`, timeoutMs: 10_000, routing: ONE_RETRY, models: [model('oa-retry')] }),
      new AnthropicProvider({ name: 'an', baseUrl: anthropicUp.url, apiKey: 'sk-upstream-an', authHeader: 'x-api-key', timeoutMs: 10_000, routing: NO_RETRY, models: [model('an-chat'), model('an-raw', 'an-raw')] }),
      new OpenAiProvider({ name: 'dead', baseUrl: `${dead}/v1`, timeoutMs: 10_000, routing: NO_RETRY, models: [model('dead-chat')] }),
    ]);
    const usage = new UsageMeter(store.usage);
    // Every usage event, as the meter receives it (the meter still aggregates and writes them).
    const record = usage.record.bind(usage);
    usage.record = (event: UsageEvent) => {
      usageEvents.push(event);
      record(event);
    };
    lifecycle = new Lifecycle();
    bodyBudget = new BodyBudget(64 * 1024 * 1024);
    const authenticator = new KeyAuthenticator(store.keys, store.users, { changedElsewhere: store.database.changedElsewhere });
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line) logLines.push(JSON.parse(line));
        done();
      },
    });
    deps = {
      store,
      authenticator,
      router,
      rateLimiter: new RateLimiter(0),
      budgets: new MemoryBudgetCounter(),
      usage,
      requestLog: { push: (entry: UsageEvent & RequestLogEntry) => requestLogEntries.push(entry) } as unknown as RequestLog,
      settings: { publicUrl: 'http://gw.test', publicImageUrl: 'http://img.gw.test', bodyLimitBytes: BODY_LIMIT },
      lifecycle,
      bodyBudget,
      logger: pino({ level: 'info' }, logStream),
    };
    metrics = new GatewayMetrics({
      pendingUsageBuckets: () => usage.pendingBuckets,
      usageFlushFailures: () => usage.flushFailures,
      databaseKeyLookups: () => authenticator.databaseLookups,
      openResponses: () => lifecycle.openResponses,
      providersCooling: () => [],
    });
    deps.metrics = metrics;
    router.health.observe((verdict) => {
      if (verdict.kind === 'failure') metrics.upstreamFailures.inc({ provider: verdict.provider });
    });

    const sideUsers = {} as Record<SideLabel, { userId: string; keys: Side['keys'] }>;
    for (const label of ['lane', 'fastify'] as const) {
      const user = await store.users.create(`${label}-user`, 'password-123');
      const make = async (name: KeyName, limits = NO_LIMITS) => {
        const created = await store.keys.create(user.id, `${label}-${name}`, limits);
        keyNames.set(created.id, name);
        return { key: created.key, keyId: created.id };
      };
      sideUsers[label] = {
        userId: user.id,
        keys: {
          main: await make('main'),
          models: await make('models', { ...NO_LIMITS, models: ['demo-chat', 'an-chat'] }),
          'rate-chat': await make('rate-chat'),
          'rate-msgs': await make('rate-msgs'),
        },
      };
      userSides.set(user.id, label);
    }

    const start = async (label: SideLabel, gatewayDeps: GatewayDeps): Promise<Side> => {
      const app = buildTextApp({ ...gatewayDeps, settings: { ...gatewayDeps.settings, fastLane: label === 'lane' } });
      apps.push(app);
      await app.listen({ host: '127.0.0.1', port: 0 });
      const port = (app.server.address() as { port: number }).port;
      return { label, app, port, origin: `http://127.0.0.1:${port}`, ...sideUsers[label] };
    };
    pairs.main = { lane: await start('lane', deps), fastify: await start('fastify', deps) };
    const rateDeps: GatewayDeps = { ...deps, rateLimiter: new RateLimiter(2, () => RATE_CLOCK) };
    pairs.rate = { lane: await start('lane', rateDeps), fastify: await start('fastify', rateDeps) };
  });

  after(async () => {
    keepAlive.destroy();
    await Promise.allSettled(apps.map((app) => app.close()));
    await router?.close();
    await Promise.allSettled([openaiUp?.close(), anthropicUp?.close()]);
    await store?.close().catch(() => undefined);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  // -------------------------------------------------------------------------------------------
  // Observing one side

  async function metricsSnapshot(): Promise<Map<string, number>> {
    const wanted = new Set(['gwctl_requests_total', 'gwctl_upstream_retries_total', 'gwctl_rate_limited_total', 'gwctl_upstream_failures_total', 'gwctl_request_duration_seconds', 'gwctl_gateway_overhead_seconds']);
    const snapshot = new Map<string, number>();
    for (const metric of await metrics.registry.getMetricsAsJSON()) {
      if (!wanted.has(metric.name)) continue;
      for (const value of metric.values as Array<{ metricName?: string; labels: Record<string, unknown>; value: number }>) {
        const name = value.metricName ?? metric.name;
        // Histograms: the number of observations only (their times differ).
        if (/_(bucket|sum)$/.test(name)) continue;
        snapshot.set(`${name}${JSON.stringify(value.labels)}`, value.value);
      }
    }
    return snapshot;
  }

  function metricsDelta(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
    const delta: Record<string, number> = {};
    for (const [name, value] of [...after].sort(([a], [b]) => a.localeCompare(b))) {
      const change = value - (before.get(name) ?? 0);
      if (change !== 0) delta[name] = change;
    }
    return delta;
  }

  function usageView(event: UsageEvent): unknown {
    return { side: userSides.get(event.userId) ?? event.userId, key: keyNames.get(event.keyId) ?? event.keyId, model: event.model, status: event.status, inputTokens: event.inputTokens, outputTokens: event.outputTokens, sessionId: event.sessionId, outcome: event.outcome };
  }

  function logView(line: Record<string, unknown>, requestId: string | undefined): unknown {
    const view: Record<string, unknown> = { level: line.level, msg: line.msg };
    for (const field of ['method', 'path', 'status']) if (field in line) view[field] = line[field];
    if ('key' in line) view.key = keyNames.get(String(line.key)) ?? line.key;
    if ('ms' in line) view.ms = typeof line.ms === 'number' ? '<number>' : line.ms;
    if ('reqId' in line) view.reqId = line.reqId === requestId ? '<request-id>' : line.reqId;
    if (line.err) view.err = (line.err as { message?: string }).message;
    return view;
  }

  const openStreams = async () => metrics.openStreams.count;

  /** Waits (bounded) for what the end of a request leaves behind; on timeout the comparison shows what is missing. */
  async function settle(expect: { usage: number; metrics: boolean; logLines: number; usageFrom: number; logFrom: number; metricsBefore: Map<string, number> }): Promise<void> {
    await waitFor(
      async () =>
        usageEvents.length - expect.usageFrom >= expect.usage &&
        logLines.slice(expect.logFrom).filter((l) => l.msg === 'request').length >= expect.logLines &&
        (!expect.metrics || Object.keys(metricsDelta(expect.metricsBefore, await metricsSnapshot())).some((k) => k.startsWith('gwctl_requests_total'))) &&
        lifecycle.openResponses === 0 &&
        bodyBudget.reservedBytes === 0 &&
        (await openStreams()) === 0,
      { timeoutMs: 5_000, what: 'the end of the request (usage, metrics, log line, open responses)' },
    ).catch(() => undefined);
  }

  function keyIsValid(req: Req): boolean {
    if (req.authorization !== undefined || req.key === null) return false;
    // x-api-key is refused on the chat route.
    return !(req.via === 'x-api-key' && decodedPath(req.path) === CHAT);
  }

  interface Observation {
    status: number;
    headers: Record<string, string>;
    body: unknown;
    requestIdShape: string;
    upstream: unknown[];
    usage: unknown[];
    requestLog: unknown[];
    metrics: Record<string, number>;
    log: unknown[];
    after: { openResponses: number; reservedBodyBytes: number; openStreams: number };
  }

  async function observe(side: Side, c: Case): Promise<{ observation: Observation; answer: Answer; missing: string[] }> {
    openaiUp.handle(c.openai ?? openaiDefault);
    anthropicUp.handle(c.anthropic ?? anthropicDefault);
    const from = { openai: openaiUp.requests.length, anthropic: anthropicUp.requests.length, usage: usageEvents.length, requestLog: requestLogEntries.length, log: logLines.length };
    const metricsBefore = await metricsSnapshot();
    if (c.draining) lifecycle.draining = true;
    const answer = await send(side, c).finally(() => {
      lifecycle.draining = false;
    });
    const requestId = typeof answer.headers['x-request-id'] === 'string' ? answer.headers['x-request-id'] : undefined;
    const hot = (c.method ?? 'POST') === 'POST' && (HOT_PATHS.has(decodedPath(c.path)) || GEMINI_PATH.test(decodedPath(c.path)));
    // Usage is counted for every request a key authenticated on a key-checked route (the model list included).
    const keyChecked = hot || ((c.method ?? 'POST') === 'GET' && decodedPath(c.path) === '/v1/models');
    const usageExpected = keyChecked && keyIsValid(c) && !c.noHost && !c.draining && answer.status !== 401 ? 1 : 0;
    await settle({ usage: usageExpected, metrics: hot, logLines: 1, usageFrom: from.usage, logFrom: from.log, metricsBefore });
    const observation: Observation = {
      status: answer.status,
      headers: normaliseHeaders(answer.headers, requestId),
      body: normaliseBody(answer, requestId),
      requestIdShape: requestId === undefined ? '<none>' : REQUEST_ID.test(requestId) ? '<req_ + 16>' : `<odd: ${requestId}>`,
      upstream: [...openaiUp.requests.slice(from.openai), ...anthropicUp.requests.slice(from.anthropic)].map(normaliseUpstream),
      usage: usageEvents.slice(from.usage).map(usageView),
      requestLog: requestLogEntries.slice(from.requestLog).map((entry) => ({
        ...(usageView(entry) as object),
        at: typeof entry.at,
        latencyMs: typeof entry.latencyMs,
        // The support desk's facts must be the same on both sides, the request id the answer's.
        requestId: entry.requestId === requestId ? '<the answer\'s>' : entry.requestId,
        ...Object.fromEntries(SUPPORT_VIEW.map((field) => [field, entry[field]])),
        keyFingerprint: entry.keyFingerprint === undefined ? undefined : /^[0-9a-f]{16}$/.test(entry.keyFingerprint) ? '<16 hex>' : entry.keyFingerprint,
      })),
      metrics: metricsDelta(metricsBefore, await metricsSnapshot()),
      log: logLines.slice(from.log).map((line) => logView(line, requestId)),
      after: { openResponses: lifecycle.openResponses, reservedBodyBytes: bodyBudget.reservedBytes, openStreams: await openStreams() },
    };
    // What every answered request leaves behind, checked on both sides (fastify's being the reference).
    const missing: string[] = [];
    if (observation.usage.length !== usageExpected) missing.push(`${observation.usage.length} usage event(s), expected ${usageExpected}`);
    // The request log also keeps every answered model-API request without a key owner (support looks their ids up).
    const unowned = !/^\/(health|metrics|admin)(\/|$)/.test(c.path) && (c.path.startsWith('/v1') || answer.status >= 400);
    const logExpected = usageExpected === 1 || unowned ? 1 : 0;
    if (observation.requestLog.length !== logExpected) missing.push(`${observation.requestLog.length} request log entries, expected ${logExpected}`);
    if (hot && !Object.keys(observation.metrics).some((k) => k.startsWith('gwctl_requests_total'))) missing.push('no gwctl_requests_total sample');
    if (logLines.slice(from.log).filter((l) => l.msg === 'request').length !== 1) missing.push('not exactly one request log line');
    return { observation, answer, missing };
  }

  /** Strips the side names so the two observations compare. */
  function sideless(observation: Observation): Observation {
    const strip = (rows: unknown[]) => rows.map((row) => ({ ...(row as object), side: '<side>' }));
    return { ...observation, usage: strip(observation.usage), requestLog: strip(observation.requestLog) };
  }

  async function runCase(c: Case): Promise<string | undefined> {
    const pair = pairs[c.pair ?? 'main'];
    const servedBefore = laneServed(pair.lane.app) ?? NaN;
    const lane = await observe(pair.lane, c);
    const servedDelta = (laneServed(pair.lane.app) ?? NaN) - servedBefore;
    const fastify = await observe(pair.fastify, c);
    const problems: string[] = [];
    if (fastify.answer.status !== c.status) problems.push(`fastify answered ${fastify.answer.status}, the corpus expects ${c.status}`);
    if (lane.answer.status !== c.status) problems.push(`the lane answered ${lane.answer.status}, the corpus expects ${c.status}`);
    for (const [label, side] of [['lane', lane], ['fastify', fastify]] as const) {
      if (side.missing.length > 0) problems.push(`${label}: ${side.missing.join('; ')}`);
    }
    if (servedDelta !== (c.lane ? 1 : 0)) problems.push(`the lane's served counter moved by ${servedDelta}, expected ${c.lane ? 1 : 0} (${c.lane ? 'the lane should answer this itself' : 'this should fall back to fastify'})`);
    try {
      assert.deepStrictEqual(sideless(lane.observation), sideless(fastify.observation));
    } catch (error) {
      problems.push(`lane (actual) and fastify (expected) differ:\n${(error as Error).message}`);
    }
    for (const [label, { observation }] of [['lane', lane], ['fastify', fastify]] as const) {
      if (observation.after.openResponses !== 0 || observation.after.reservedBodyBytes !== 0 || observation.after.openStreams !== 0) {
        problems.push(`${label}: something was still held after the answer: ${inspect(observation.after)}`);
      }
    }
    if (problems.length === 0) return undefined;
    return `case "${c.name}" (${c.method ?? 'POST'} ${c.path}):\n  ${problems.join('\n  ')}\n  lane answered ${lane.answer.status}: ${lane.answer.body.slice(0, 400)}\n  fastify answered ${fastify.answer.status}: ${fastify.answer.body.slice(0, 400)}`;
  }

  /** Runs every case (all of them, not up to the first difference) and fails with every difference found. */
  async function runCases(cases: Case[]): Promise<void> {
    const failures: string[] = [];
    for (const c of cases) {
      try {
        const failure = await runCase(c);
        if (failure) failures.push(failure);
      } catch (error) {
        failures.push(`case "${c.name}": ${(error as Error).stack ?? error}`);
      }
    }
    if (failures.length > 0) assert.fail(`${failures.length} of ${cases.length} cases differ:\n\n${failures.join('\n\n')}`);
  }

  // -------------------------------------------------------------------------------------------

  it('builds the lane only when asked: a served counter on fastLane:true, none on fastLane:false', () => {
    assert.equal(laneServed(pairs.main.lane.app), 0);
    assert.equal(laneServed(pairs.rate.lane.app), 0);
    assert.equal(laneServed(pairs.main.fastify.app), undefined);
    assert.equal(laneServed(pairs.rate.fastify.app), undefined);
  });

  it('chat completions: JSON and streams, through the demo model, an openai upstream and a translation', () =>
    runCases([
      { name: 'demo JSON', status: 200, path: CHAT, json: chat('demo-chat'), lane: true },
      { name: 'demo stream without include_usage', status: 200, path: CHAT, json: chat('demo-chat', { stream: true }), lane: true },
      { name: 'demo stream with include_usage', status: 200, path: CHAT, json: chat('demo-chat', { stream: true, stream_options: { include_usage: true } }), lane: true },
      { name: 'demo stream: null', status: 200, path: CHAT, json: chat('demo-chat', { stream: null, stream_options: null }), lane: true },
      { name: 'openai upstream JSON (model renamed)', status: 200, path: CHAT, json: chat('oa-chat'), lane: true },
      { name: 'openai upstream stream without include_usage', status: 200, path: CHAT, json: chat('oa-chat', { stream: true }), lane: true },
      { name: 'openai upstream stream with include_usage', status: 200, path: CHAT, json: chat('oa-chat', { stream: true, stream_options: { include_usage: true } }), lane: true },
      {
        name: 'openai upstream: the client bytes go through unchanged (spacing, key order, unknown fields)', status: 200,
        path: CHAT,
        raw: '{ "messages" : [ {"role":"developer","content":"be brief"}, {"role":"user","content":"hi ✓"} ],\n "model":"oa-raw", "x_unknown": {"a":[1,2,3]}, "temperature": 0.5 }',
        headers: { 'openai-beta': 'assistants=v2', 'openai-organization': 'org-x' },
        lane: true,
      },
      { name: 'chat through an anthropic upstream (translated), JSON', status: 200, path: CHAT, json: chat('an-chat'), lane: true },
      { name: 'chat through an anthropic upstream (translated), stream', status: 200, path: CHAT, json: chat('an-chat', { stream: true }), lane: true },
      { name: 'a query string on chat', status: 200, path: `${CHAT}?api-version=1`, json: chat('oa-chat'), lane: true },
      { name: 'client session header', status: 200, path: CHAT, json: chat('demo-chat'), headers: { 'x-claude-code-session-id': 'session-1' }, lane: true },
    ]));

  it('messages and count_tokens: JSON and streams, the query string and protocol headers kept', () =>
    runCases([
      { name: 'demo messages JSON', status: 200, path: MESSAGES, json: msgs('demo-chat'), lane: true },
      { name: 'demo messages stream', status: 200, path: MESSAGES, json: msgs('demo-chat', { stream: true }), lane: true },
      { name: 'anthropic upstream JSON (model renamed)', status: 200, path: MESSAGES, json: msgs('an-chat'), lane: true },
      { name: 'anthropic upstream stream', status: 200, path: MESSAGES, json: msgs('an-chat', { stream: true }), lane: true },
      {
        name: 'anthropic upstream: ?beta=true, anthropic-* headers and the exact bytes forwarded', status: 200,
        path: `${MESSAGES}?beta=true`,
        raw: '{"model":"an-raw","max_tokens":64,"messages":[{"role":"user","content":[{"type":"text","text":"hi","cache_control":{"type":"ephemeral"}}]}],"metadata":{"user_id":"u1"},"new_field":true}',
        headers: { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'prompt-caching-2024-07-31', 'x-app': 'cli' },
        lane: true,
      },
      { name: 'anthropic upstream stream with ?beta=true', status: 200, path: `${MESSAGES}?beta=true`, json: msgs('an-chat', { stream: true }), headers: { 'anthropic-version': '2023-06-01' }, lane: true },
      { name: 'messages through an openai upstream (translated), JSON', status: 200, path: MESSAGES, json: msgs('oa-chat'), lane: true },
      { name: 'messages through an openai upstream (translated), stream', status: 200, path: MESSAGES, json: msgs('oa-chat', { stream: true }), lane: true },
      { name: 'count_tokens on the demo model', status: 200, path: COUNT, json: { model: 'demo-chat', messages: prompt }, lane: true },
      { name: 'count_tokens on an anthropic upstream, ?beta=true', status: 200, path: `${COUNT}?beta=true`, json: { model: 'an-chat', messages: prompt }, lane: true },
      { name: 'count_tokens on an openai upstream (no equivalent)', status: 400, path: COUNT, json: { model: 'oa-chat', messages: prompt }, lane: true },
      { name: 'count_tokens without messages', status: 400, path: COUNT, json: { model: 'demo-chat' }, lane: true },
    ]));

  it('the Gemini API: generation through each upstream, SSE and JSON-array streams, countTokens, refusals', () => {
    const gem = (extra: Record<string, unknown> = {}) => ({ contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }], ...extra });
    const at = (model: string, method: string) => `/v1beta/models/${model}:${method}`;
    return runCases([
      { name: 'gemini generateContent on the demo (translated)', status: 200, path: at('demo-chat', 'generateContent'), json: gem(), lane: true },
      { name: 'gemini SSE stream through an anthropic upstream', status: 200, path: `${at('an-chat', 'streamGenerateContent')}?alt=sse`, json: gem(), lane: true },
      { name: 'gemini JSON-array stream through an openai upstream', status: 200, path: at('oa-chat', 'streamGenerateContent'), json: gem(), lane: true },
      { name: 'gemini countTokens on an anthropic upstream', status: 200, path: at('an-chat', 'countTokens'), json: gem(), lane: true },
      { name: 'gemini unknown model', status: 404, path: at('no-such-model', 'generateContent'), json: gem(), lane: true },
      { name: 'gemini unknown method', status: 404, path: at('demo-chat', 'frobnicate'), json: gem(), lane: true },
      { name: 'gemini untranslatable field', status: 400, path: at('demo-chat', 'generateContent'), json: gem({ cachedContent: 'cachedContents/x' }), lane: true },
      { name: 'gemini without a key', status: 401, path: at('demo-chat', 'generateContent'), key: null, json: gem(), lane: true },
      { name: 'gemini percent-encoded path (left to fastify)', status: 200, path: at('demo%2Dchat', 'generateContent'), json: gem(), lane: false },
    ]);
  });

  it('keys: missing, malformed, unknown, x-api-key refused on chat and accepted on messages, a model the key may not use', () =>
    runCases([
      { name: 'no key on chat', status: 401, path: CHAT, key: null, json: chat('demo-chat'), lane: true },
      { name: 'no key on messages', status: 401, path: MESSAGES, key: null, json: msgs('demo-chat'), lane: true },
      { name: 'no key on count_tokens', status: 401, path: COUNT, key: null, json: { model: 'demo-chat', messages: prompt }, lane: true },
      { name: 'key in quotes', status: 401, path: CHAT, authorization: 'Bearer "sk-gw-quoted"', json: chat('demo-chat'), lane: true },
      { name: 'scheme other than Bearer', status: 401, path: CHAT, authorization: 'Basic dXNlcjpwYXNz', json: chat('demo-chat'), lane: true },
      { name: 'key without Bearer', status: 401, path: MESSAGES, authorization: 'sk-gw-nobearer', json: msgs('demo-chat'), lane: true },
      { name: 'two spaces after Bearer', status: 401, path: MESSAGES, authorization: 'Bearer  sk-gw-x', json: msgs('demo-chat'), lane: true },
      { name: 'unknown key on chat', status: 401, path: CHAT, authorization: 'Bearer sk-gw-000000000000000000000000unknown', json: chat('demo-chat'), lane: true },
      { name: 'unknown key on messages', status: 401, path: MESSAGES, authorization: 'Bearer sk-gw-000000000000000000000000unknown', json: msgs('demo-chat'), lane: true },
      { name: 'x-api-key on chat (refused)', status: 401, path: CHAT, via: 'x-api-key', json: chat('demo-chat'), lane: true },
      { name: 'x-api-key on messages (accepted)', status: 200, path: MESSAGES, via: 'x-api-key', json: msgs('demo-chat'), lane: true },
      { name: 'x-api-key wins over an unknown bearer key on messages', status: 200, path: MESSAGES, via: 'x-api-key', json: msgs('demo-chat'), headers: { authorization: 'Bearer sk-gw-000000000000000000000000unknown' }, lane: true },
      { name: 'bearer and an unknown x-api-key on chat (x-api-key ignored there)', status: 200, path: CHAT, json: chat('demo-chat'), headers: { 'x-api-key': 'sk-gw-000000000000000000000000unknown' }, lane: true },
      { name: 'x-api-key on count_tokens (accepted)', status: 200, path: COUNT, via: 'x-api-key', json: { model: 'demo-chat', messages: prompt }, lane: true },
      { name: 'key limited to other models, chat', status: 403, path: CHAT, key: 'models', json: chat('oa-chat'), lane: true },
      { name: 'key limited to other models, messages', status: 403, path: MESSAGES, key: 'models', json: msgs('oa-chat'), lane: true },
      { name: 'key limited to models, one it may use', status: 200, path: MESSAGES, key: 'models', json: msgs('an-chat'), lane: true },
    ]));

  it('bodies: invalid JSON, too deep, not an object, missing or mistyped fields, unknown fields kept', () =>
    runCases([
      { name: 'invalid JSON on chat', status: 400, path: CHAT, raw: '{"model":"demo-chat",', lane: true },
      { name: 'invalid JSON on messages', status: 400, path: MESSAGES, raw: '{"model": demo}', lane: true },
      { name: 'invalid JSON without a key (the key is checked first)', status: 401, path: CHAT, key: null, raw: '{nope', lane: true },
      { name: `JSON nested ${DEFAULT_JSON_MAX_DEPTH} levels (the limit, accepted)`, status: 200, path: CHAT, raw: nested('demo-chat', DEFAULT_JSON_MAX_DEPTH), lane: true },
      { name: `JSON nested ${DEFAULT_JSON_MAX_DEPTH + 1} levels (too deep)`, status: 400, path: CHAT, raw: nested('demo-chat', DEFAULT_JSON_MAX_DEPTH + 1), lane: true },
      { name: 'JSON nested too deep on messages', status: 400, path: MESSAGES, raw: nested('demo-chat', DEFAULT_JSON_MAX_DEPTH + 50), lane: true },
      { name: 'body is a JSON array', status: 400, path: CHAT, json: [chat('demo-chat')], lane: true },
      { name: 'body is a JSON string', status: 400, path: MESSAGES, json: 'hello', lane: true },
      { name: 'body is JSON null', status: 400, path: CHAT, raw: 'null', lane: true },
      { name: 'body is a number', status: 400, path: COUNT, raw: '42', lane: true },
      { name: 'model missing on chat', status: 400, path: CHAT, json: { messages: prompt }, lane: true },
      { name: 'model missing on messages', status: 400, path: MESSAGES, json: { max_tokens: 10, messages: prompt }, lane: true },
      { name: 'model not a string', status: 400, path: CHAT, json: chat(42 as unknown as string), lane: true },
      { name: 'model empty', status: 400, path: MESSAGES, json: msgs(''), lane: true },
      { name: 'messages not an array on chat', status: 400, path: CHAT, json: { model: 'demo-chat', messages: 'hi' }, lane: true },
      { name: 'messages not an array on messages', status: 400, path: MESSAGES, json: { model: 'demo-chat', max_tokens: 5, messages: { role: 'user' } }, lane: true },
      { name: 'stream not a boolean on chat', status: 400, path: CHAT, json: chat('demo-chat', { stream: 'yes' }), lane: true },
      { name: 'stream not a boolean on messages', status: 400, path: MESSAGES, json: msgs('demo-chat', { stream: 1 }), lane: true },
      { name: 'stream_options not an object', status: 400, path: CHAT, json: chat('demo-chat', { stream: true, stream_options: 'x' }), lane: true },
      { name: 'messages without max_tokens', status: 400, path: MESSAGES, json: { model: 'demo-chat', messages: prompt }, lane: true },
      { name: 'max_tokens not an integer', status: 400, path: MESSAGES, json: msgs('demo-chat', { max_tokens: 1.5 }), lane: true },
      { name: 'several fields wrong at once', status: 400, path: MESSAGES, json: { model: 7, stream: 'x' }, lane: true },
      { name: 'extra unknown fields kept (demo)', status: 200, path: CHAT, json: chat('demo-chat', { x_custom: { deep: [1, { a: null }] }, n: 1 }), lane: true },
      { name: 'extra unknown fields kept (openai upstream, model renamed)', status: 200, path: CHAT, json: chat('oa-chat', { x_custom: 'kept', tools: [] }), lane: true },
      { name: 'demo refuses n=2 (upstream-level 400)', status: 400, path: CHAT, json: chat('demo-chat', { n: 2 }), lane: true },
      { name: 'body with a UTF-8 BOM', status: 400, path: CHAT, raw: `\ufeff${JSON.stringify(chat('demo-chat'))}`, lane: true },
      { name: 'body with trailing whitespace', status: 200, path: MESSAGES, raw: `${JSON.stringify(msgs('demo-chat'))}\n\n  `, lane: true },
      { name: '__proto__ key in the body', status: 200, path: CHAT, raw: '{"model":"demo-chat","messages":[{"role":"user","content":"x"}],"__proto__":{"polluted":true}}', lane: true },
    ]));

  it('models: unknown, of another kind, unreachable', () =>
    runCases([
      { name: 'unknown model on chat', status: 404, path: CHAT, json: chat('no-such-model'), lane: true },
      { name: 'unknown model on messages', status: 404, path: MESSAGES, json: msgs('no-such-model'), lane: true },
      { name: 'unknown model on count_tokens', status: 404, path: COUNT, json: { model: 'no-such-model', messages: prompt }, lane: true },
      { name: 'image model on chat', status: 404, path: CHAT, json: chat('demo-image'), lane: true },
      { name: 'embedding model on messages', status: 404, path: MESSAGES, json: msgs('demo-embedding'), lane: true },
      { name: 'upstream unreachable (closed port)', status: 502, path: CHAT, json: chat('dead-chat'), lane: true },
      { name: 'upstream unreachable, stream, messages client (translated)', status: 502, path: MESSAGES, json: msgs('dead-chat', { stream: true }), lane: true },
    ]));

  it('upstream failures: 400, 429 with retry-after, 500, 401, retries, a stream cut mid-way', () =>
    runCases([
      { name: 'openai upstream 400', status: 400, path: CHAT, json: chat('oa-chat'), openai: () => jsonReply(400, chatError('bad temperature', 'invalid_request_error', 'invalid_value'), { 'x-request-id': 'up-400' }), lane: true },
      {
        name: 'openai upstream 429 with retry-after and rate-limit headers', status: 429,
        path: CHAT,
        json: chat('oa-chat'),
        openai: () => jsonReply(429, chatError('slow down', 'rate_limit_error'), { 'retry-after': '17', 'x-ratelimit-remaining-requests': '0', 'x-should-retry': 'true' }),
        lane: true,
      },
      { name: 'openai upstream 500 with a non-JSON body', status: 500, path: CHAT, json: chat('oa-chat'), openai: () => rawReply(500, '<html>boom</html>', 'text/html'), lane: true },
      { name: 'openai upstream 401 (502 upstream_auth_failed)', status: 502, path: CHAT, json: chat('oa-chat'), openai: () => jsonReply(401, chatError('Incorrect API key', 'invalid_request_error', 'invalid_api_key')), lane: true },
      { name: 'openai upstream 503, retried once', status: 503, path: CHAT, json: chat('oa-retry'), openai: () => jsonReply(503, chatError('overloaded', 'server_error')), lane: true },
      { name: 'openai upstream 400 on a stream', status: 400, path: CHAT, json: chat('oa-chat', { stream: true }), openai: () => jsonReply(400, chatError('bad', 'invalid_request_error')), lane: true },
      { name: 'anthropic upstream 400', status: 400, path: MESSAGES, json: msgs('an-chat'), anthropic: () => jsonReply(400, messagesError('invalid_request_error', 'max_tokens too large'), { 'request-id': 'req_up_400' }), lane: true },
      {
        name: 'anthropic upstream 429 with retry-after', status: 429,
        path: MESSAGES,
        json: msgs('an-chat', { stream: true }),
        anthropic: () => jsonReply(429, messagesError('rate_limit_error', 'slow down'), { 'retry-after': '9', 'anthropic-ratelimit-requests-remaining': '0' }),
        lane: true,
      },
      { name: 'anthropic upstream 529 overloaded', status: 529, path: MESSAGES, json: msgs('an-chat'), anthropic: () => jsonReply(529, messagesError('overloaded_error', 'Overloaded')), lane: true },
      { name: 'anthropic upstream 401 on messages (502)', status: 502, path: MESSAGES, json: msgs('an-chat'), anthropic: () => jsonReply(401, messagesError('authentication_error', 'invalid x-api-key')), lane: true },
      { name: 'anthropic upstream 500 through the chat translation', status: 500, path: CHAT, json: chat('an-chat'), anthropic: () => jsonReply(500, messagesError('api_error', 'internal')), lane: true },
      { name: 'openai upstream 429 through the messages translation', status: 429, path: MESSAGES, json: msgs('oa-chat'), openai: () => jsonReply(429, chatError('slow', 'rate_limit_error'), { 'retry-after': '3' }), lane: true },
      { name: 'openai upstream answers 200 with a body that is not JSON', status: 200, path: CHAT, json: chat('oa-chat'), openai: () => rawReply(200, 'not json at all', 'application/json'), lane: true },
      {
        name: 'openai upstream answers a stream with 201 (the status reaches usage, metrics and the log line)', status: 201, path: CHAT, json: chat('oa-chat', { stream: true }),
        openai: () => rawReply(201, 'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}],"usage":null}\n\ndata: [DONE]\n\n', 'text/event-stream'),
        lane: true,
      },
      { name: 'openai upstream answers 204 (no body, no content type or length)', status: 204, path: CHAT, json: chat('oa-chat'), openai: () => rawReply(204, '', 'application/json'), lane: true },
      { name: 'openai upstream answers status 600 (refused: 500)', status: 500, path: CHAT, json: chat('oa-chat'), openai: () => jsonReply(600, chatError('odd', 'server_error')), lane: true },
      { name: 'openai stream cut mid-way', status: 200, path: CHAT, json: chat('oa-chat', { stream: true }), openai: openaiCut, lane: true },
      { name: 'openai stream cut mid-way, include_usage', status: 200, path: CHAT, json: chat('oa-chat', { stream: true, stream_options: { include_usage: true } }), openai: openaiCut, lane: true },
      { name: 'anthropic stream cut mid-way', status: 200, path: MESSAGES, json: msgs('an-chat', { stream: true }), anthropic: anthropicCut, lane: true },
      { name: 'anthropic stream cut mid-way, translated to chat', status: 200, path: CHAT, json: chat('an-chat', { stream: true }), anthropic: anthropicCut, lane: true },
      { name: 'openai stream cut mid-way, translated to messages', status: 200, path: MESSAGES, json: msgs('oa-chat', { stream: true }), openai: openaiCut, lane: true },
    ]));

  it('fallbacks to fastify: other types, methods, paths and body framings, answered as before', () =>
    runCases([
      { name: 'content-type text/plain (415)', status: 415, path: CHAT, raw: JSON.stringify(chat('demo-chat')), contentType: 'text/plain', lane: false },
      { name: 'no content-type', status: 415, path: MESSAGES, raw: JSON.stringify(msgs('demo-chat')), contentType: null, lane: false },
      { name: 'content-type application/json; charset=utf-8 (accepted by the lane)', status: 200, path: CHAT, json: chat('demo-chat'), contentType: 'application/json; charset=utf-8', lane: true },
      { name: 'content-type Application/JSON (accepted by the lane)', status: 200, path: MESSAGES, json: msgs('demo-chat'), contentType: 'Application/JSON', lane: true },
      { name: 'content-type application/jsonx', status: 415, path: CHAT, json: chat('demo-chat'), contentType: 'application/jsonx', lane: false },
      { name: 'GET on chat', status: 404, method: 'GET', path: CHAT, lane: false },
      { name: 'GET on messages', status: 404, method: 'GET', path: MESSAGES, lane: false },
      { name: 'PUT on count_tokens', status: 404, method: 'PUT', path: COUNT, json: { model: 'demo-chat', messages: prompt }, lane: false },
      { name: 'percent-encoded path', status: 200, path: '/v1/%6Dessages', json: msgs('demo-chat'), lane: false },
      { name: 'trailing slash', status: 404, path: `${CHAT}/`, json: chat('demo-chat'), lane: false },
      { name: 'chunked body (no content-length)', status: 200, path: CHAT, json: chat('demo-chat'), chunked: true, lane: false },
      { name: 'chunked body, stream, messages', status: 200, path: MESSAGES, json: msgs('demo-chat', { stream: true }), chunked: true, lane: false },
      { name: 'empty body (content-length 0)', status: 400, path: CHAT, raw: '', lane: false },
      { name: 'body over the body limit (413)', status: 413, path: MESSAGES, json: msgs('demo-chat', { pad: 'x'.repeat(BODY_LIMIT) }), lane: false },
      { name: 'body exactly at the body limit', status: 200, path: CHAT, raw: JSON.stringify(chat('demo-chat', { pad: '' })).replace('"pad":""', `"pad":"${'x'.repeat(BODY_LIMIT - JSON.stringify(chat('demo-chat', { pad: '' })).length)}"`), lane: true },
      { name: 'missing Host', status: 400, path: CHAT, json: chat('demo-chat'), noHost: true, lane: false },
      { name: 'draining: 503 shutting_down', status: 503, path: CHAT, json: chat('demo-chat'), draining: true, lane: false },
      { name: 'draining, messages', status: 503, path: MESSAGES, json: msgs('demo-chat', { stream: true }), draining: true, lane: false },
      { name: 'doubled slash', status: 404, path: `/${CHAT}`, json: chat('demo-chat'), lane: false },
      { name: 'doubled /v1', status: 404, path: `/v1${MESSAGES}`, json: msgs('demo-chat'), lane: false },
      { name: 'empty query string (accepted by the lane)', status: 200, path: `${CHAT}?`, json: chat('demo-chat'), lane: true },
      { name: 'Expect: 100-continue (accepted by the lane)', status: 200, path: MESSAGES, json: msgs('demo-chat'), headers: { expect: '100-continue' }, lane: true },
      { name: 'other route on the same listener (models)', status: 200, method: 'GET', path: '/v1/models', lane: false },
    ]));

  it('rate limit: 2 requests a minute per key, the third refused with the same headers on both', () =>
    runCases([
      ...[1, 2, 3].map((n): Case => ({ name: `chat request ${n} of 3`, status: n < 3 ? 200 : 429, pair: 'rate', key: 'rate-chat', path: CHAT, json: chat('demo-chat'), lane: true })),
      ...[1, 2, 3].map((n): Case => ({ name: `messages request ${n} of 3`, status: n < 3 ? 200 : 429, pair: 'rate', key: 'rate-msgs', path: MESSAGES, json: msgs('an-chat', { stream: n === 2 }), lane: true })),
      { name: 'messages refused, x-api-key, count_tokens', status: 429, pair: 'rate', key: 'rate-msgs', via: 'x-api-key', path: COUNT, json: { model: 'an-chat', messages: prompt }, lane: true },
      { name: 'refused before the body is parsed (invalid JSON)', status: 429, pair: 'rate', key: 'rate-chat', path: CHAT, raw: '{', lane: true },
      { name: 'rate limited, fallback route', status: 429, pair: 'rate', key: 'rate-chat', path: CHAT, json: chat('demo-chat'), contentType: 'text/plain', lane: false },
    ]));

  it('the official clients read the same answers from both', async () => {
    const differences: string[] = [];
    const compare = async (name: string, call: (side: Side) => Promise<unknown>) => {
      const results = {} as Record<SideLabel, unknown>;
      let laneDelta = NaN;
      for (const side of [pairs.main.lane, pairs.main.fastify]) {
        const served = laneServed(pairs.main.lane.app) ?? NaN;
        const from = usageEvents.length;
        results[side.label] = JSON.parse(normaliseText(JSON.stringify(await call(side)), undefined));
        if (side.label === 'lane') laneDelta = (laneServed(pairs.main.lane.app) ?? NaN) - served;
        await waitFor(() => usageEvents.length > from && lifecycle.openResponses === 0, { what: `usage of "${name}" on ${side.label}` });
      }
      if (laneDelta !== 1) differences.push(`${name}: the lane's served counter moved by ${laneDelta}, expected 1`);
      try {
        assert.deepStrictEqual(results.lane, results.fastify);
      } catch (error) {
        differences.push(`${name}: lane (actual) and fastify (expected) differ:\n${(error as Error).message}`);
      }
    };
    const openai = (side: Side) => new OpenAI({ apiKey: side.keys.main.key, baseURL: `${side.origin}/v1`, maxRetries: 0 });
    const anthropic = (side: Side) => new Anthropic({ apiKey: side.keys.main.key, baseURL: side.origin, maxRetries: 0 });
    const collect = async (stream: AsyncIterable<unknown>) => {
      const events: unknown[] = [];
      for await (const event of stream) events.push(event);
      return events;
    };
    await compare('openai SDK, chat JSON', (side) => openai(side).chat.completions.create({ model: 'oa-chat', messages: [{ role: 'user', content: 'hi' }] }));
    await compare('openai SDK, chat stream', async (side) => collect(await openai(side).chat.completions.create({ model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }], stream: true })));
    await compare('openai SDK, an error', (side) =>
      openai(side)
        .chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] })
        .then(
          () => 'no error',
          (error: InstanceType<typeof OpenAI.APIError>) => ({ status: error.status, error: error.error, code: error.code }),
        ),
    );
    await compare('anthropic SDK, messages JSON', (side) => anthropic(side).messages.create({ model: 'an-chat', max_tokens: 32, messages: [{ role: 'user', content: 'hi' }] }));
    await compare('anthropic SDK, messages stream', async (side) => collect(await anthropic(side).messages.create({ model: 'demo-chat', max_tokens: 32, messages: [{ role: 'user', content: 'hi' }], stream: true })));
    await compare('anthropic SDK, count_tokens', (side) => anthropic(side).messages.countTokens({ model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }] }));
    await compare('anthropic SDK, an error', (side) =>
      anthropic(side)
        .messages.create({ model: 'no-such-model', max_tokens: 32, messages: [{ role: 'user', content: 'hi' }] })
        .then(
          () => 'no error',
          (error: InstanceType<typeof Anthropic.APIError>) => ({ status: error.status, error: normaliseText(JSON.stringify(error.error), error.requestID ?? undefined) }),
        ),
    );
    if (differences.length > 0) assert.fail(differences.join('\n\n'));
  });

  it('a client that leaves mid-stream: the upstream call is aborted and usage says client_aborted, as on fastify', async () => {
    const results = {} as Record<SideLabel, { end: string; usage: unknown[]; log: unknown[]; served?: number }>;
    for (const side of [pairs.main.lane, pairs.main.fastify]) {
      const served = laneServed(pairs.main.lane.app) ?? NaN;
      const from = { usage: usageEvents.length, upstream: anthropicUp.requests.length, log: logLines.length };
      // The upstream sends the start of a stream and then nothing: only the client can end it.
      anthropicUp.handle((req) => sseReply(messagesFrames(req.json().model, ['Hel', 'lo'], { input: 7, output: 2 }).slice(0, 4), { then: 'hang', headers: ANTHROPIC_HEADERS }));
      const body = Buffer.from(JSON.stringify(msgs('an-chat', { stream: true })));
      await new Promise<void>((resolve, reject) => {
        const outgoing = httpRequest(
          { host: '127.0.0.1', port: side.port, method: 'POST', path: MESSAGES, agent: false, headers: { 'content-type': 'application/json', 'content-length': String(body.length), 'x-api-key': side.keys.main.key } },
          (res) => {
            res.once('data', () => {
              outgoing.destroy();
              resolve();
            });
            res.on('error', () => undefined);
          },
        );
        outgoing.on('error', (error) => (outgoing.destroyed ? undefined : reject(error)));
        outgoing.end(body);
      });
      const upstream = await anthropicUp.waitForRequests(from.upstream + 1);
      const end = await upstream.ended;
      await waitFor(() => usageEvents.length > from.usage && lifecycle.openResponses === 0, { what: `usage of the abandoned stream on ${side.label}` });
      results[side.label] = {
        end,
        usage: usageEvents.slice(from.usage).map((event) => ({ ...(usageView(event) as object), side: '<side>' })),
        log: logLines.slice(from.log).map((line) => logView(line, undefined)).map((view) => ({ ...(view as object), reqId: '<id>' })),
        ...(side.label === 'lane' ? { served: (laneServed(pairs.main.lane.app) ?? NaN) - served } : {}),
      };
    }
    assert.equal(results.lane.served, 1, 'the lane answered the stream itself');
    assert.equal(results.lane.end, 'aborted-by-client', 'the upstream call of the lane side was aborted');
    assert.deepEqual(
      results.lane.usage.map((u) => (u as { outcome?: string }).outcome),
      ['client_aborted'],
    );
    delete results.lane.served;
    assert.deepStrictEqual(results.lane, results.fastify);
  });

  it('usage rows written after a flush match per key, tokens, errors by status and outcomes', async () => {
    // Every request above went to both sides with the same key names: the two users' rows match.
    await deps.usage.flush();
    const view = async (label: SideLabel) => {
      const userId = pairs.main[label].userId;
      const key = (row: { keyId: string; model: string }) => `${keyNames.get(row.keyId)}|${row.model}`;
      const sort = <T extends { keyId: string; model: string }>(rows: T[]) => rows.map((row) => ({ ...row, keyId: keyNames.get(row.keyId) ?? row.keyId, userId: '<user>' })).sort((a, b) => (key(a) + JSON.stringify(a)).localeCompare(key(b) + JSON.stringify(b)));
      return {
        rows: sort(await store.usage.rows({ userId })),
        errors: sort(await store.usage.errorsByStatus({ userId })),
        outcomes: sort(await store.usage.outcomes({ userId })),
        sessions: sort(await store.usage.sessionRows({ userId })),
      };
    };
    const lane = await view('lane');
    const fastify = await view('fastify');
    assert.ok(lane.rows.length > 5, 'the corpus produced usage rows');
    assert.deepStrictEqual(lane, fastify);
    const events = (label: SideLabel) => usageEvents.filter((e) => userSides.get(e.userId) === label).length;
    assert.equal(events('lane'), events('fastify'), 'as many usage events on each side');
  });
});
