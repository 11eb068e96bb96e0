// Azure OpenAI (type `azure`): chat completions, Responses and embeddings at an Azure resource. The
// base URL is the resource root. Without `apiVersion` the v1 API (/openai/v1/…, the deployment name
// as the body's model); with it the legacy deployment paths
// (/openai/deployments/{deployment}/…?api-version=…, the model entry's upstreamModel as the
// deployment). The key goes in `api-key`, an Entra ID token as Bearer.
import { HttpProvider, type HttpProviderOptions } from '../http-provider.ts';
import type { Operation, ProviderRequest } from '../provider.ts';

export interface AzureProviderOptions extends HttpProviderOptions {
  apiVersion?: string;
  /** An Entra ID access token instead of the `api-key`. */
  accessToken?: string;
}

const PATHS: Partial<Record<Operation, string>> = { chat: '/chat/completions', responses: '/responses', response_lookup: '/responses', embeddings: '/embeddings' };

export class AzureProvider extends HttpProvider {
  readonly type = 'azure';

  constructor(private readonly options: AzureProviderOptions) {
    super(options, PATHS);
  }

  protected override pathFor(request: ProviderRequest): string {
    const path = PATHS[request.operation]! + (request.subpath ?? '');
    const version = this.options.apiVersion;
    if (!version) return `/openai/v1${path}${request.query}`;
    const query = `?api-version=${encodeURIComponent(version)}`;
    // Legacy Responses are not per deployment: the model travels in the body.
    if (request.operation === 'responses' || request.operation === 'response_lookup') return `/openai${path}${query}`;
    return `/openai/deployments/${encodeURIComponent(request.upstreamModel)}${path}${query}`;
  }

  protected upstreamHeaders(clientHeaders: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { ...clientHeaders, 'content-type': 'application/json' };
    if (this.options.accessToken) headers.authorization = `Bearer ${this.options.accessToken}`;
    else if (this.options.apiKey) headers['api-key'] = this.options.apiKey;
    return headers;
  }
}
