// A chat-completions upstream (type `openai`): base URL includes /v1; chat, image and embedding
// routes pass through, and messages clients reach it through translation (translate/). With
// `responsesApi` it also serves the Responses API (/responses, and stored responses by id), so
// Responses clients pass through instead of being translated to chat-completions.
import { HttpProvider, type HttpProviderOptions } from '../http-provider.ts';
import type { Operation } from '../provider.ts';

export interface OpenAiProviderOptions extends HttpProviderOptions {
  responsesApi?: boolean;
}

export class OpenAiProvider extends HttpProvider {
  readonly type = 'openai';

  constructor(private readonly options: OpenAiProviderOptions) {
    const paths: Partial<Record<Operation, string>> = { chat: '/chat/completions', images: '/images/generations', embeddings: '/embeddings' };
    if (options.responsesApi) Object.assign(paths, { responses: '/responses', response_lookup: '/responses' });
    super(options, paths);
  }

  protected upstreamHeaders(clientHeaders: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { ...clientHeaders, 'content-type': 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    return headers;
  }
}
