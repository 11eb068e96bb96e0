// What the HTTP provider types share: identity, models, routing and translation settings, one pooled
// upstream, and the operations their protocol serves (each type names its paths and credentials).
import { HttpUpstream } from './http-upstream.ts';
import type { ModelInfo, Operation, Provider, ProviderRequest, ProviderResponse, RoutingSettings } from './provider.ts';
import type { TranslationSettings } from '../protocols/translation.ts';

export interface HttpProviderOptions {
  name: string;
  baseUrl: string;
  apiKey?: string;
  /** Where the key comes from (`$NAME`), named when the upstream refuses it. */
  credentialSource?: string;
  timeoutMs: number;
  /** Connections to the upstream at most (default: no cap, one per request in flight). */
  maxConnections?: number;
  models: ModelInfo[];
  routing?: RoutingSettings;
  translation?: TranslationSettings;
}

export abstract class HttpProvider implements Provider {
  abstract readonly type: string;
  readonly name: string;
  readonly models: ModelInfo[];
  readonly routing?: RoutingSettings;
  readonly translation?: TranslationSettings;
  readonly credentialSource?: string;
  private readonly upstream: HttpUpstream;

  constructor(
    options: HttpProviderOptions,
    /** Upstream path of each operation this protocol serves, relative to the base URL. */
    private readonly paths: Partial<Record<Operation, string>>,
  ) {
    this.name = options.name;
    this.models = options.models;
    this.routing = options.routing;
    this.translation = options.translation;
    this.credentialSource = options.credentialSource;
    this.upstream = new HttpUpstream({ providerName: options.name, baseUrl: options.baseUrl, timeoutMs: options.timeoutMs, connections: options.maxConnections });
  }

  /** Protocol and credential headers added to the client's forwarded ones. */
  protected abstract upstreamHeaders(clientHeaders: Record<string, string>): Record<string, string>;

  supports(operation: Operation): boolean {
    return operation in this.paths;
  }

  /** The upstream path of a request, relative to the base URL. */
  protected pathFor(request: ProviderRequest): string {
    return this.paths[request.operation]! + (request.subpath ?? '') + request.query;
  }

  send(request: ProviderRequest): Promise<ProviderResponse> {
    return this.upstream.request(request.method ?? 'POST', this.pathFor(request), request.body, this.upstreamHeaders(request.headers), request.signal);
  }

  close(): Promise<void> {
    return this.upstream.close();
  }
}
