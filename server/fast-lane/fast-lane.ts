// The fast lane: the text listener's node:http request listener answers the hot API routes (chat
// completions, messages) itself, and hands everything else to fastify. It runs the same steps as
// fastify's pipeline for these routes, with the same functions (api-hooks.ts: begin, key and
// limits, body parsing, usage and metrics at the end; api-errors.ts: every failure's answer), but
// without fastify's per-request machinery (router, hook runner, content-type parser, reply
// serialisation): about 6% of the gateway's CPU per request (3-3.5 µs; BENCHMARKS.md).
//
// It takes only the plain form of a request: POST to the exact path (a query is fine), a JSON
// content type, a Content-Length within the body limit. Anything else (chunked bodies, empty
// bodies, percent-encoded paths, other types, a missing Host, a draining gateway) goes to fastify,
// which answers it as before. `settings.fastLane: false` sends everything to fastify.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { ApiRoute } from '../api-exchange.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import { answerApiError, internalError, sendApiError } from '../plugins/api-errors.ts';
import { beginApiRequest, finishApiRequest, logRequestLine, parseJsonBody } from '../plugins/api-hooks.ts';
import { nextRequestId } from '../request-ids.ts';
import { DEFAULT_JSON_MAX_DEPTH } from '../serve-options.ts';
import { compileBodyValidator } from './body-validator.ts';
import { LaneReply, LaneRequest } from './lane-exchange.ts';

interface LaneRoute extends ApiRoute {
  validate(body: unknown): void;
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** `application/json`, alone or with parameters (fastify's parser takes both). */
function isJsonType(type: string | undefined): boolean {
  if (type === undefined || type.length < 16) return false;
  const semicolon = type.indexOf(';');
  return (semicolon === -1 ? type : type.slice(0, semicolon)).trimEnd().toLowerCase() === 'application/json';
}

export class FastLane {
  /** Requests the lane answered itself (the rest went to fastify). */
  served = 0;
  private readonly routes = new Map<string, LaneRoute>();
  private readonly prefixRoutes: LaneRoute[] = [];
  private readonly maxDepth: number;
  private readonly logRequests: boolean;

  constructor(private readonly deps: GatewayDeps) {
    this.maxDepth = deps.settings.jsonMaxDepth ?? DEFAULT_JSON_MAX_DEPTH;
    this.logRequests = deps.logger?.isLevelEnabled('info') ?? false;
  }

  add(route: ApiRoute): void {
    const lane = { ...route, validate: compileBodyValidator(route.bodySchema) };
    if (route.lanePrefix) this.prefixRoutes.push(lane);
    else this.routes.set(route.url, lane);
  }

  /** A route matched by prefix: one more segment, plain (no percent-encoding, no further slash). */
  private byPrefix(path: string): LaneRoute | undefined {
    for (const route of this.prefixRoutes) {
      const prefix = route.lanePrefix!;
      if (path.length > prefix.length && path.startsWith(prefix) && path.indexOf('/', prefix.length) === -1 && !path.includes('%')) return route;
    }
    return undefined;
  }

  /** Puts the lane in front of fastify's request listener on `server`. */
  install(server: Server): void {
    const [fastify] = server.listeners('request') as RequestListener[];
    if (!fastify) throw new Error('the fast lane needs fastify\'s request listener in place');
    server.removeListener('request', fastify);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (!this.take(req, res)) fastify.call(server, req, res);
    });
  }

  /** Answers the request when it is a hot route in its plain form; false leaves it to fastify. */
  private take(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'POST') return false;
    const url = req.url!;
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const route = this.routes.get(path) ?? (this.prefixRoutes.length > 0 ? this.byPrefix(path) : undefined);
    if (route === undefined) return false;
    const headers = req.headers;
    if (!isJsonType(headers['content-type']) || headers['transfer-encoding'] !== undefined) return false;
    const length = Number(headers['content-length']);
    if (!(length > 0 && length <= this.deps.settings.bodyLimitBytes)) return false;
    if (headers.host === undefined || this.deps.lifecycle?.draining) return false;

    this.served += 1;
    const request = new LaneRequest(req, nextRequestId(), route.url, this.deps.logger);
    const reply = new LaneReply(res, performance.now());
    // As fastify's hook runners, no failure here may escape the listener (it would end the process).
    res.once('finish', () => {
      try {
        finishApiRequest(this.deps, request, reply);
        if (this.logRequests) logRequestLine(request, reply);
      } catch (error) {
        request.log.error({ err: error }, 'counting a finished request failed');
      }
    });
    try {
      const refusal = beginApiRequest(this.deps, request, reply);
      reply.beforeEnd = request.gateway.beforeAnswerEnds;
      if (refusal !== undefined) {
        this.fail(request, reply, refusal);
        return true;
      }
      // As fastify: the key is checked before the body is read (a refused request's body is never parsed).
      route.authenticate(request, reply).then(
        () => this.readBody(route, request, reply),
        (error: unknown) => this.fail(request, reply, error),
      );
    } catch (error) {
      this.fail(request, reply, error);
    }
    return true;
  }

  private readBody(route: LaneRoute, request: LaneRequest, reply: LaneReply): void {
    const req = request.raw;
    let first: Buffer | undefined;
    let more: Buffer[] | undefined;
    req.on('data', (chunk: Buffer) => {
      if (first === undefined) first = chunk;
      else (more ??= [first]).push(chunk);
    });
    // A client that leaves while sending: its response closes too, and the close handler of
    // beginApiRequest releases what the request held. Nothing to answer.
    req.on('error', () => undefined);
    req.once('end', () => {
      // A copy, as fastify's parser makes: a lone chunk is a view into the socket's read buffer,
      // which would otherwise stay in memory for as long as the request (a stream) lasts.
      const raw = Buffer.concat(more ?? (first ? [first] : []));
      this.handle(route, request, reply, raw).catch((error: unknown) => this.fail(request, reply, error));
    });
  }

  private async handle(route: LaneRoute, request: LaneRequest, reply: LaneReply, raw: Buffer): Promise<void> {
    request.rawBody = raw;
    try {
      request.body = parseJsonBody(raw, this.maxDepth);
    } catch (error) {
      // As fastify after a body it could not parse: the connection closes with the answer.
      reply.header('connection', 'close');
      throw error;
    }
    route.validate(request.body);
    await route.handler(request, reply);
  }

  private fail(request: LaneRequest, reply: LaneReply, thrown: unknown): void {
    const error = thrown instanceof Error ? thrown : new Error(`rejected without an error (${String(thrown)})`);
    if (reply.sent) {
      request.log.error({ err: error }, 'request failed after its answer started');
      return;
    }
    try {
      answerApiError(this.deps.settings, error, request, reply);
    } catch (failure) {
      request.log.error({ err: failure }, 'answering a failed request failed');
      try {
        if (!reply.sent) sendApiError(request, reply, internalError());
      } catch {
        reply.raw.destroy();
      }
    }
  }
}
