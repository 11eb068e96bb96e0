// A messages-protocol upstream (type `anthropic`): base URL is the root; /v1/messages is appended.
// Chat-completions clients reach it through translation (translate/).
import { HttpUpstream } from '../http-upstream.ts';
import type { ModelInfo, Operation, Provider, ProviderRequest, ProviderResponse, RoutingSettings } from '../provider.ts';
import type { TranslationSettings } from '../translate/translators.ts';

const PATHS: Partial<Record<Operation, string>> = {
  messages: '/v1/messages',
  count_tokens: '/v1/messages/count_tokens',
};

export interface AnthropicProviderOptions {
  name: string;
  baseUrl: string;
  apiKey?: string;
  authHeader: 'x-api-key' | 'bearer';
  timeoutMs: number;
  models: ModelInfo[];
  routing?: RoutingSettings;
  translation?: TranslationSettings;
}

export class AnthropicProvider implements Provider {
  readonly type = 'anthropic';
  readonly name: string;
  readonly models: ModelInfo[];
  readonly routing?: RoutingSettings;
  readonly translation?: TranslationSettings;
  private readonly upstream: HttpUpstream;

  constructor(private readonly options: AnthropicProviderOptions) {
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
    const headers: Record<string, string> = { 'anthropic-version': '2023-06-01', ...request.headers, 'content-type': 'application/json' };
    if (this.options.apiKey) {
      if (this.options.authHeader === 'bearer') headers.authorization = `Bearer ${this.options.apiKey}`;
      else headers['x-api-key'] = this.options.apiKey;
    }
    return this.upstream.post(PATHS[request.operation]! + request.query, request.body, headers, request.signal);
  }

  close(): Promise<void> {
    return this.upstream.close();
  }
}
