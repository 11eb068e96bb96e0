// A Gemini API upstream (type `gemini`, Google AI Studio): the base URL is the API root without a
// version (default the public one); the gateway adds /v1beta/models/{model}:{method}, and asks for
// streams as server-sent events (alt=sse). The key goes in x-goog-api-key, never in the URL. Clients
// of the other protocols reach it through translation (server/protocols/).
import { HttpProvider, type HttpProviderOptions } from '../http-provider.ts';
import type { ProviderRequest } from '../provider.ts';

export const GEMINI_PUBLIC_BASE_URL = 'https://generativelanguage.googleapis.com';

const METHODS = { gemini: ':generateContent', gemini_count_tokens: ':countTokens', gemini_embed: ':embedContent', gemini_batch_embed: ':batchEmbedContents' };

export class GeminiProvider extends HttpProvider {
  readonly type = 'gemini';

  constructor(private readonly options: HttpProviderOptions) {
    super(options, METHODS);
  }

  protected override pathFor(request: ProviderRequest): string {
    const model = `/v1beta/models/${encodeURIComponent(request.upstreamModel)}`;
    if (request.operation === 'gemini' && request.stream) return `${model}:streamGenerateContent?alt=sse`;
    return model + METHODS[request.operation as keyof typeof METHODS];
  }

  protected upstreamHeaders(): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.apiKey) headers['x-goog-api-key'] = this.options.apiKey;
    return headers;
  }
}
