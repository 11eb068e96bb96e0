// A chat-completions upstream (type `openai`): base URL includes /v1; chat and image routes pass through,
// and messages clients reach it through translation (translate/).
import { HttpUpstream } from '../http-upstream.ts';
import type { ModelInfo, Operation, Provider, ProviderRequest, ProviderResponse, RoutingSettings } from '../provider.ts';
import type { TranslationSettings } from '../translate/translators.ts';

const PATHS: Partial<Record<Operation, string>> = {
  chat: '/chat/completions',
  images: '/images/generations',
};

export interface OpenAiProviderOptions {
  name: string;
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
  models: ModelInfo[];
  routing?: RoutingSettings;
  translation?: TranslationSettings;
}

export class OpenAiProvider implements Provider {
  readonly type = 'openai';
  readonly name: string;
  readonly models: ModelInfo[];
  readonly routing?: RoutingSettings;
  readonly translation?: TranslationSettings;
  private readonly upstream: HttpUpstream;

  constructor(private readonly options: OpenAiProviderOptions) {
    this.name = options.name;
    this.models = options.models;
    this.routing = options.routing;
    this.translation = options.translation;
    this.upstream = new HttpUpstream({ providerName: options.name, baseUrl: options.baseUrl, timeoutMs: options.timeoutMs });
  }

  supports(operation: Operation): boolean {
    return operation in PATHS;
  }

  send(request: ProviderRequest): Promise<ProviderResponse> {
    const headers: Record<string, string> = { ...request.headers, 'content-type': 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    return this.upstream.post(PATHS[request.operation]! + request.query, request.body, headers, request.signal);
  }

  close(): Promise<void> {
    return this.upstream.close();
  }
}
