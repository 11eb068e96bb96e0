// What every provider offers the routes: a raw HTTP-like exchange in the provider's own protocol.
// Routes never branch on a provider's name; they ask what it supports, and translate between the
// text protocols (translate/) when a provider speaks the other one.
import type { RequestAbort } from '../relay/request-abort.ts';
import type { TranslationSettings } from '../protocols/translation.ts';

/**
 * `responses` creates a response; `response_lookup` reaches a stored response by id (retrieve,
 * input items, delete, cancel) at an upstream that keeps them.
 */
export type Operation =
  | 'chat'
  | 'messages'
  | 'count_tokens'
  | 'images'
  | 'responses'
  | 'response_lookup'
  | 'embeddings'
  /** Gemini's generateContent (and its stream), countTokens, embedContent, batchEmbedContents. */
  | 'gemini'
  | 'gemini_count_tokens'
  | 'gemini_embed'
  | 'gemini_batch_embed';

export interface ProviderRequest {
  operation: Operation;
  /** The model name the upstream knows (may differ from the public name). */
  upstreamModel: string;
  /** The request body bytes to send (the client's bytes unless the gateway had to change a field). */
  body: Buffer;
  json: Record<string, unknown>;
  stream: boolean;
  /** Query string of the client request, including '?', or ''. */
  query: string;
  /** POST unless set (a stored response is read with GET, removed with DELETE). */
  method?: 'GET' | 'POST' | 'DELETE';
  /** Appended to the operation's upstream path (`/{id}` of a stored response, and more). */
  subpath?: string;
  /** Client headers the upstream should see (protocol versions and betas, never credentials). */
  headers: Record<string, string>;
  /** Aborted when the client leaves: the upstream call stops. */
  signal: RequestAbort;
}

export interface ProviderResponse {
  status: number;
  headers: Record<string, string>;
  body: AsyncIterable<Uint8Array>;
  /** The whole body, once the gateway has read it (a JSON answer settled before relaying). */
  bytes?: Buffer;
}

/** What a model produces: text (chat, messages, Responses), images, or embeddings. */
export type ModelKind = 'text' | 'image' | 'embedding';

export interface ModelInfo {
  /** Public name clients send. */
  id: string;
  /** Name sent upstream. */
  upstreamModel: string;
  kind: ModelKind;
  displayName?: string;
  created: number;
  /** Among providers serving the same public name: lower is tried first (default 1). */
  priority?: number;
  /** Share of traffic among providers of equal priority (default 1; 0 = only as a fallback). */
  weight?: number;
}

/** How the gateway treats a provider's failures. */
export interface RoutingSettings {
  /** Extra attempts on this provider after a connection error or a 429/5xx before the first byte. */
  retries: number;
  /** Consecutive failures after which the provider is skipped for cooldownMs, then probed. */
  cooldownAfterFailures: number;
  cooldownMs: number;
}

/** For a provider built without settings (in code): tried once per request. The providers file defaults retries to 1. */
export const DEFAULT_ROUTING: RoutingSettings = { retries: 0, cooldownAfterFailures: 3, cooldownMs: 30_000 };

export interface Provider {
  readonly name: string;
  readonly type: string;
  readonly models: ModelInfo[];
  readonly routing?: RoutingSettings;
  /** Protocol details a translation into this provider's protocol needs. */
  readonly translation?: TranslationSettings;
  /** `upstreamModel` narrows it for providers whose protocol depends on the model (a cloud serving several vendors' models). */
  supports(operation: Operation, upstreamModel?: string): boolean;
  /** Where the gateway's own credential for it comes from (`$NAME`), named when the upstream refuses it; never the value. */
  readonly credentialSource?: string;
  /** Where a cloud provider runs (an AWS or Google Cloud region), shown to operators. */
  readonly region?: string;
  /** Throws UpstreamError for connection failures and timeouts before a response arrives. */
  send(request: ProviderRequest): Promise<ProviderResponse>;
  close(): Promise<void>;
}

export type UpstreamFailure = 'unreachable' | 'timeout';

export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  constructor(
    readonly failure: UpstreamFailure,
    readonly providerName: string,
    message: string,
  ) {
    super(message);
  }
}
