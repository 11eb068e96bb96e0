// Google Vertex AI (type `vertex`): Claude through rawPredict / streamRawPredict (the messages
// protocol with Vertex's `anthropic_version`) and count-tokens, Gemini through generateContent /
// streamGenerateContent?alt=sse (the Gemini protocol), so every client protocol reaches both. The
// model decides the publisher: `claude-…` is Anthropic's, anything else Google's. Authenticated
// with an OAuth access token: a service account's (fetched, cached and refreshed) or one given.
import { readBody } from '../../relay/read-body.ts';
import { HttpUpstream } from '../http-upstream.ts';
import { UpstreamError, type ModelInfo, type Operation, type Provider, type ProviderRequest, type ProviderResponse, type RoutingSettings } from '../provider.ts';
import type { TranslationSettings } from '../../protocols/translation.ts';
import { VERTEX_CLAUDE_FEATURES } from '../cloud-claude/claude-features.ts';
import { cloudClaudeBody } from '../cloud-claude/claude-request-body.ts';
import { bufferedAnswer } from '../buffered-answer.ts';
import { TokenRefusedError } from './service-account-token.ts';
import { vertexErrorAnswer } from './vertex-errors.ts';

export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';
const MAX_ERROR_BODY = 1024 * 1024;

export interface VertexProviderOptions {
  name: string;
  project: string;
  region: string;
  /** The host root; default https://{region}-aiplatform.googleapis.com (https://aiplatform.googleapis.com for global). */
  baseUrl?: string;
  /** The access token to send, current (fetched and refreshed by the caller's source). */
  accessToken: () => Promise<string>;
  credentialSource: string;
  timeoutMs: number;
  maxConnections?: number;
  models: ModelInfo[];
  routing?: RoutingSettings;
  translation?: TranslationSettings;
}

export function vertexPublisher(upstreamModel: string): 'anthropic' | 'google' {
  return upstreamModel.startsWith('claude') ? 'anthropic' : 'google';
}

const OPERATIONS: Record<'anthropic' | 'google', readonly Operation[]> = {
  anthropic: ['messages', 'count_tokens'],
  google: ['gemini', 'gemini_count_tokens'],
};

export class VertexProvider implements Provider {
  readonly type = 'vertex';
  readonly name: string;
  readonly models: ModelInfo[];
  readonly routing?: RoutingSettings;
  readonly translation?: TranslationSettings;
  readonly credentialSource: string;
  readonly region: string;
  private readonly upstream: HttpUpstream;
  private readonly prefix: string;

  constructor(private readonly options: VertexProviderOptions) {
    this.name = options.name;
    this.models = options.models;
    this.routing = options.routing;
    this.translation = options.translation;
    this.credentialSource = options.credentialSource;
    this.region = options.region;
    const host = options.region === 'global' ? 'https://aiplatform.googleapis.com' : `https://${options.region}-aiplatform.googleapis.com`;
    this.upstream = new HttpUpstream({ providerName: options.name, baseUrl: options.baseUrl ?? host, timeoutMs: options.timeoutMs, connections: options.maxConnections });
    this.prefix = `/v1/projects/${encodeURIComponent(options.project)}/locations/${encodeURIComponent(options.region)}/publishers`;
  }

  supports(operation: Operation, upstreamModel?: string): boolean {
    if (upstreamModel === undefined) return OPERATIONS.anthropic.includes(operation) || OPERATIONS.google.includes(operation);
    return OPERATIONS[vertexPublisher(upstreamModel)].includes(operation);
  }

  async send(request: ProviderRequest): Promise<ProviderResponse> {
    const publisher = vertexPublisher(request.upstreamModel);
    const model = encodeURIComponent(request.upstreamModel);
    let path: string;
    let body: Buffer;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (publisher === 'anthropic') {
      const adapted = cloudClaudeBody(request.json, {
        provider: this.name,
        table: VERTEX_CLAUDE_FEATURES,
        anthropicVersion: VERTEX_ANTHROPIC_VERSION,
        betaHeader: request.headers['anthropic-beta'],
        betasInBody: false,
      });
      if (adapted.betas.length > 0) headers['anthropic-beta'] = adapted.betas.join(',');
      const counting = request.operation === 'count_tokens';
      if (counting) adapted.body.model = request.upstreamModel;
      path = counting ? `${this.prefix}/anthropic/models/count-tokens:rawPredict` : `${this.prefix}/anthropic/models/${model}:${request.stream ? 'streamRawPredict' : 'rawPredict'}`;
      body = Buffer.from(JSON.stringify(adapted.body));
    } else {
      const method = request.operation === 'gemini_count_tokens' ? ':countTokens' : request.stream ? ':streamGenerateContent?alt=sse' : ':generateContent';
      path = `${this.prefix}/google/models/${model}${method}`;
      body = request.body;
    }
    const token = await this.token();
    if (token.refused) return token.refused;
    headers.authorization = `Bearer ${token.value}`;
    const response = await this.upstream.request('POST', path, body, headers, request.signal);
    if (response.status < 400) return response;
    const bytes = await readBody(response.body, MAX_ERROR_BODY);
    return vertexErrorAnswer(response.status, response.headers, bytes, publisher === 'anthropic' ? 'messages' : 'gemini');
  }

  /** The token, or the 401 answer that says the gateway's credential was refused. */
  private async token(): Promise<{ value?: string; refused?: ProviderResponse }> {
    try {
      return { value: await this.options.accessToken() };
    } catch (error) {
      if (error instanceof TokenRefusedError) {
        const body = { type: 'error', error: { type: 'authentication_error', message: error.message } };
        return { refused: bufferedAnswer(401, { 'x-should-retry': 'false' }, Buffer.from(JSON.stringify(body))) };
      }
      throw new UpstreamError('unreachable', this.name, (error as Error).message);
    }
  }

  close(): Promise<void> {
    return this.upstream.close();
  }
}
