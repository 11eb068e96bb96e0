// A chat-completions upstream (type `openai`): base URL includes /v1; chat and image routes pass through,
// and messages clients reach it through translation (translate/).
import { HttpProvider, type HttpProviderOptions } from '../http-provider.ts';

export type OpenAiProviderOptions = HttpProviderOptions;

export class OpenAiProvider extends HttpProvider {
  readonly type = 'openai';

  constructor(private readonly options: OpenAiProviderOptions) {
    super(options, { chat: '/chat/completions', images: '/images/generations' });
  }

  protected upstreamHeaders(clientHeaders: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { ...clientHeaders, 'content-type': 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    return headers;
  }
}
