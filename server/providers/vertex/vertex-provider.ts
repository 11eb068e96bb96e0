// Google Vertex AI (type `vertex`): Claude through rawPredict / streamRawPredict (the messages
// protocol with Vertex's `anthropic_version`) and count-tokens, Gemini through generateContent /
// streamGenerateContent?alt=sse (the Gemini protocol), so every client protocol reaches both; Google's
// embedding models through :predict or :embedContent (vertex-embeddings.ts), taking the Gemini API's
// embedding requests. The model decides the publisher: `claude-…` is Anthropic's, anything else
// Google's. Authenticated with an OAuth access token: a service account's (fetched, cached and
// refreshed) or one given.
import { readBody } from '../../relay/read-body.ts';
import { HttpUpstream } from '../http-upstream.ts';
import { UpstreamError, type ModelInfo, type Operation, type Provider, type ProviderRequest, type ProviderResponse, type RoutingSettings } from '../provider.ts';
import type { TranslationSettings } from '../../protocols/translation.ts';
import { VERTEX_CLAUDE_FEATURES } from '../cloud-claude/claude-features.ts';
import { cloudClaudeBody } from '../cloud-claude/claude-request-body.ts';
import { bufferedAnswer } from '../buffered-answer.ts';
import { callsInGroups } from '../calls-in-groups.ts';
import { parseJsonText } from '../../protocols/shared/json-values.ts';
import { TokenRefusedError } from './service-account-token.ts';
import { vertexErrorAnswer } from './vertex-errors.ts';
import { embeddingCalls, geminiEmbeddingAnswer } from './vertex-embeddings.ts';

export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';
const MAX_ERROR_BODY = 1024 * 1024;
/** An embeddings answer: 250 vectors of 3072 numbers as text fit well within it. */
const MAX_EMBEDDINGS_BODY = 64 * 1024 * 1024;
/** :predict or :embedContent calls of one request in flight at once. */
const EMBEDDING_CALLS_AT_ONCE = 8;

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
  google: ['gemini', 'gemini_count_tokens', 'gemini_embed', 'gemini_batch_embed'],
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
    if (request.operation === 'gemini_embed' || request.operation === 'gemini_batch_embed') return this.embed(request, request.operation === 'gemini_batch_embed');
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

  /** A Gemini embedding request as the calls the model takes, answered in the Gemini API's shape. */
  private async embed(request: ProviderRequest, batch: boolean): Promise<ProviderResponse> {
    const calls = embeddingCalls(request.upstreamModel, request.json, batch);
    const googleError = (status: number, code: string, message: string) =>
      bufferedAnswer(status, { 'x-should-retry': String(status >= 500) }, Buffer.from(JSON.stringify({ error: { code: status, message, status: code } })));
    if ('refusal' in calls) return googleError(400, 'INVALID_ARGUMENT', calls.refusal);
    const token = await this.token();
    if (token.refused) return token.refused;
    const path = `${this.prefix}/google/models/${encodeURIComponent(request.upstreamModel)}:${calls.api}`;
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token.value}` };
    const call = async (body: unknown) => {
      const response = await this.upstream.request('POST', path, Buffer.from(JSON.stringify(body)), { ...headers }, request.signal);
      return { response, bytes: await readBody(response.body, response.status < 400 ? MAX_EMBEDDINGS_BODY : MAX_ERROR_BODY) };
    };
    const results = await callsInGroups(calls.bodies, EMBEDDING_CALLS_AT_ONCE, call, (result) => result.response.status >= 400);
    const failure = results.find((result) => result.response.status >= 400);
    if (failure) return vertexErrorAnswer(failure.response.status, failure.response.headers, failure.bytes, 'gemini');
    const answers = results.map((result) => parseJsonText(result.bytes.toString('utf8')));
    const texts = batch ? (request.json.requests as unknown[]).length : 1;
    const answer = geminiEmbeddingAnswer(calls.api, answers, texts, batch);
    if (!answer) return googleError(502, 'UNAVAILABLE', `Vertex AI answered :${calls.api} for ${request.upstreamModel} without the ${texts} embedding${texts === 1 ? '' : 's'} asked for.`);
    return bufferedAnswer(200, {}, Buffer.from(JSON.stringify(answer)));
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
