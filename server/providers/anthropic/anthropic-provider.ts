// A messages-protocol upstream (type `anthropic`): base URL is the root; /v1/messages is appended.
// Chat-completions clients reach it through translation (translate/).
import { HttpProvider, type HttpProviderOptions } from '../http-provider.ts';

export interface AnthropicProviderOptions extends HttpProviderOptions {
  authHeader: 'x-api-key' | 'bearer';
}

export class AnthropicProvider extends HttpProvider {
  readonly type = 'anthropic';

  constructor(private readonly options: AnthropicProviderOptions) {
    super(options, { messages: '/v1/messages', count_tokens: '/v1/messages/count_tokens' });
  }

  protected upstreamHeaders(clientHeaders: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { 'anthropic-version': '2023-06-01', ...clientHeaders, 'content-type': 'application/json' };
    if (this.options.apiKey) {
      if (this.options.authHeader === 'bearer') headers.authorization = `Bearer ${this.options.apiKey}`;
      else headers['x-api-key'] = this.options.apiKey;
    }
    return headers;
  }
}
