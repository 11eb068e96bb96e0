// What the API routes' shared logic (forwarding, relaying, usage, errors) needs of a request and
// its reply. fastify's request and reply have these members; the fast lane (server/fast-lane/)
// provides them directly on node:http for the hot routes.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayRequestState } from './gateway-request.ts';

export interface ApiLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface ApiRequest {
  readonly id: string;
  /** Path and query as the client sent them. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly raw: IncomingMessage;
  /** The parsed JSON body. */
  readonly body: unknown;
  /** The body's exact bytes (same-protocol upstreams receive them unchanged). */
  rawBody?: Buffer;
  gateway: GatewayRequestState;
  readonly log: ApiLog;
  /** The route's path pattern (metrics label); undefined for unmatched URLs. */
  readonly routeOptions: { readonly url?: string };
}

export interface ApiReply {
  readonly raw: ServerResponse;
  /** Milliseconds since the request arrived. */
  readonly elapsedTime: number;
  readonly statusCode: number;
  header(name: string, value: string): ApiReply;
  getHeader(name: string): unknown;
  getHeaders(): Record<string, unknown>;
  hasHeader(name: string): boolean;
  code(status: number): ApiReply;
  type(contentType: string): ApiReply;
  /** Sends the whole answer: a Buffer or string as is, anything else as JSON. */
  send(payload: unknown): ApiReply;
  /** The route writes the response itself from now on (streams). */
  hijack(): void;
}

/** A route's handler, shared by fastify and the fast lane. */
export type ApiHandler = (request: ApiRequest, reply: ApiReply) => Promise<unknown>;

/** A POST route with a JSON body that fastify and the fast lane both serve. */
export interface ApiRoute {
  url: string;
  /** JSON schema of the body: only what routing and usage counting need. */
  bodySchema: object;
  /** Runs before the body is read, as fastify's route-level onRequest hook: the key and its limits. */
  authenticate: ApiHandler;
  handler: ApiHandler;
  /**
   * For a route whose path holds a parameter (`/v1beta/models/:target`): the fixed start of its
   * paths, which the fast lane matches with nothing after it but one plain segment.
   */
  lanePrefix?: string;
}
