// Amazon Bedrock (type `bedrock`), spoken as the messages protocol so every client protocol reaches
// it through the usual translation: Claude models through InvokeModel and
// InvokeModelWithResponseStream (the body gets Bedrock's `anthropic_version` and the client's betas
// as `anthropic_beta`), other models through Converse and ConverseStream (converse-exchange.ts);
// Titan and Cohere embedding models through InvokeModel for /v1/embeddings and for Gemini clients'
// embedContent (bedrock-embeddings.ts).
// Requests are signed with Signature Version 4 (service `bedrock`) from an access key, or carry a
// Bedrock API key as Bearer. The model id (or a cross-region inference profile such as
// `us.anthropic.…`) goes in the path.
import { readBody } from '../../relay/read-body.ts';
import { bufferedAnswer } from '../buffered-answer.ts';
import { callsInGroups } from '../calls-in-groups.ts';
import { HttpUpstream } from '../http-upstream.ts';
import type { ModelInfo, Operation, Provider, ProviderRequest, ProviderResponse, RoutingSettings } from '../provider.ts';
import type { TranslationSettings } from '../../protocols/translation.ts';
import { BEDROCK_CLAUDE_FEATURES } from '../cloud-claude/claude-features.ts';
import { cloudClaudeBody } from '../cloud-claude/claude-request-body.ts';
import { AwsRequestSigner, type AwsCredentials } from './aws-request-signer.ts';
import { awsErrorMessage, awsErrorName, mapAwsError, messagesErrorBody } from './bedrock-errors.ts';
import { bedrockStreamAsSse } from './bedrock-stream.ts';
import { converseAnswerAsMessages, converseBody, converseStreamAsSse } from './converse-exchange.ts';
import { DEFAULT_TRANSLATION } from '../../protocols/translation.ts';
import { EmbeddingRefusal, embeddingAnswer, embeddingFamilyOf, embeddingPlan, geminiAnswerOfOpenAi, openAiBodyOfGemini, type EmbeddingPlan } from './bedrock-embeddings.ts';
import { TranslationError } from '../../protocols/shared/translation-error.ts';
import { parseJsonText } from '../../protocols/shared/json-values.ts';

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';
const MAX_ERROR_BODY = 1024 * 1024;
const MAX_ANSWER_BODY = 64 * 1024 * 1024;
/** The operations an embedding model answers: OpenAI's embeddings, and the Gemini API's for its clients (their task type reaches Cohere). */
const EMBEDDING_OPERATIONS: ReadonlySet<Operation> = new Set(['embeddings', 'gemini_embed', 'gemini_batch_embed']);

/** InvokeModel calls of one embeddings request in flight at once. */
const EMBEDDING_CALLS_AT_ONCE = 8;

export interface BedrockProviderOptions {
  name: string;
  region: string;
  /** Default: https://bedrock-runtime.{region}.amazonaws.com */
  baseUrl?: string;
  /** Signed requests; or `apiKey`, a Bedrock API key sent as Bearer. */
  credentials?: AwsCredentials;
  apiKey?: string;
  /** The variables the credential comes from, named when Bedrock refuses it. */
  credentialSource: string;
  timeoutMs: number;
  maxConnections?: number;
  models: ModelInfo[];
  routing?: RoutingSettings;
  translation?: TranslationSettings;
}

/** Anthropic's models on Bedrock: `anthropic.claude-…`, or an inference profile `us.anthropic.…`. */
export function isBedrockClaude(upstreamModel: string): boolean {
  return /(^|[.:/])anthropic\./.test(upstreamModel);
}

export class BedrockProvider implements Provider {
  readonly type = 'bedrock';
  readonly name: string;
  readonly models: ModelInfo[];
  readonly routing?: RoutingSettings;
  readonly translation?: TranslationSettings;
  readonly credentialSource: string;
  readonly region: string;
  private readonly baseUrl: string;
  private readonly upstream: HttpUpstream;
  private readonly signer?: AwsRequestSigner;

  constructor(private readonly options: BedrockProviderOptions) {
    this.name = options.name;
    this.models = options.models;
    this.routing = options.routing;
    this.translation = options.translation;
    this.credentialSource = options.credentialSource;
    this.region = options.region;
    this.baseUrl = (options.baseUrl ?? `https://bedrock-runtime.${options.region}.amazonaws.com`).replace(/\/+$/, '');
    this.upstream = new HttpUpstream({ providerName: options.name, baseUrl: this.baseUrl, timeoutMs: options.timeoutMs, connections: options.maxConnections });
    if (options.credentials) this.signer = new AwsRequestSigner('bedrock', options.region, options.credentials);
  }

  supports(operation: Operation, upstreamModel?: string): boolean {
    if (EMBEDDING_OPERATIONS.has(operation)) return upstreamModel === undefined || embeddingFamilyOf(upstreamModel) !== undefined;
    return operation === 'messages' || operation === 'count_tokens';
  }

  async send(request: ProviderRequest): Promise<ProviderResponse> {
    if (EMBEDDING_OPERATIONS.has(request.operation)) return this.embed(request);
    const model = encodeURIComponent(request.upstreamModel);
    const counting = request.operation === 'count_tokens';
    const claude = isBedrockClaude(request.upstreamModel);
    let body: Record<string, unknown>;
    if (claude) {
      body = cloudClaudeBody(request.json, {
        provider: this.name,
        table: BEDROCK_CLAUDE_FEATURES,
        anthropicVersion: BEDROCK_ANTHROPIC_VERSION,
        betaHeader: request.headers['anthropic-beta'],
        betasInBody: true,
      }).body;
    } else {
      const converse = converseBody(request.json, request.upstreamModel, this.translation ?? DEFAULT_TRANSLATION);
      if ('refused' in converse) return converse.refused;
      body = converse.body;
    }
    const action = counting ? 'count-tokens' : claude ? (request.stream ? 'invoke-with-response-stream' : 'invoke') : request.stream ? 'converse-stream' : 'converse';
    const path = `/model/${model}/${action}`;
    // CountTokens takes the invoke body as a blob, which AWS's JSON protocol writes as base64.
    const payload = !counting ? body : claude ? { input: { invokeModel: { body: Buffer.from(JSON.stringify({ ...body, max_tokens: body.max_tokens ?? 1 })).toString('base64') } } } : { input: { converse: { messages: body.messages, ...(body.system ? { system: body.system } : {}) } } };
    const bytes = Buffer.from(JSON.stringify(payload));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: request.stream && !counting ? 'application/vnd.amazon.eventstream' : 'application/json',
    };
    const signed = this.signer
      ? await this.signer.sign({ method: 'POST', url: new URL(this.baseUrl + path), headers, body: bytes })
      : { ...headers, authorization: `Bearer ${this.options.apiKey}` };
    const response = await this.upstream.request('POST', path, bytes, signed, request.signal);
    if (response.status >= 400) return this.errorAnswer(response);
    if (counting) return this.countAnswer(response);
    const eventStream = (response.headers['content-type'] ?? '').includes('application/vnd.amazon.eventstream');
    if (!eventStream) return claude ? response : converseAnswerAsMessages(await readBody(response.body, MAX_ANSWER_BODY), request.upstreamModel);
    const { 'content-type': _type, ...rest } = response.headers;
    const events = claude ? bedrockStreamAsSse(response.body) : converseStreamAsSse(response.body, request.upstreamModel);
    return { status: response.status, headers: { ...rest, 'content-type': 'text/event-stream' }, body: events };
  }

  /**
   * An embeddings request (OpenAI's, or a Gemini client's embedContent / batchEmbedContents) as the
   * InvokeModel calls its model takes, answered in the request's own protocol.
   */
  private async embed(request: ProviderRequest): Promise<ProviderResponse> {
    const refusal = (message: string, param: string | null) =>
      bufferedAnswer(400, { 'x-should-retry': 'false' }, Buffer.from(JSON.stringify({ error: { message, type: 'invalid_request_error', param, code: null } })));
    const family = embeddingFamilyOf(request.upstreamModel);
    if (!family) return refusal(`${request.upstreamModel} is not an embedding model the gateway knows on Bedrock (Titan Text Embeddings, Cohere Embed).`, 'model');
    const gemini = request.operation !== 'embeddings';
    const batch = request.operation === 'gemini_batch_embed';
    let plan: EmbeddingPlan;
    try {
      plan = embeddingPlan(family, request.upstreamModel, gemini ? openAiBodyOfGemini(family, request.upstreamModel, request.json, batch) : request.json);
    } catch (error) {
      if (error instanceof EmbeddingRefusal || error instanceof TranslationError) return refusal(`${request.upstreamModel} on Bedrock: ${error.message}`, error.field);
      throw error;
    }
    const path = `/model/${encodeURIComponent(request.upstreamModel)}/invoke`;
    const results = await callsInGroups(plan.bodies, EMBEDDING_CALLS_AT_ONCE, (body) => this.invokeEmbedding(path, body, request), (result) => 'failed' in result);
    const failure = results.find((result) => 'failed' in result);
    if (failure && 'failed' in failure) return failure.failed;
    const answers = results as { body: unknown; headerTokens?: number }[];
    const answer = embeddingAnswer(family, plan, answers);
    if (!answer) {
      const body = { error: { message: `Bedrock answered InvokeModel for ${request.upstreamModel} without the ${plan.texts} embedding${plan.texts === 1 ? '' : 's'} asked for.`, type: 'api_error', param: null, code: null } };
      return bufferedAnswer(502, { 'x-should-retry': 'true' }, Buffer.from(JSON.stringify(body)));
    }
    return bufferedAnswer(200, {}, Buffer.from(JSON.stringify(gemini ? geminiAnswerOfOpenAi(answer, batch) : answer)));
  }

  /** One signed InvokeModel call of an embedding model: its parsed answer and Bedrock's token count, or the error answer. */
  private async invokeEmbedding(path: string, body: unknown, request: ProviderRequest): Promise<{ body: unknown; headerTokens?: number } | { failed: ProviderResponse }> {
    const bytes = Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    const signed = this.signer
      ? await this.signer.sign({ method: 'POST', url: new URL(this.baseUrl + path), headers, body: bytes })
      : { ...headers, authorization: `Bearer ${this.options.apiKey}` };
    const response = await this.upstream.request('POST', path, bytes, signed, request.signal);
    if (response.status >= 400) return { failed: await this.errorAnswer(response) };
    const answer = parseJsonText((await readBody(response.body, MAX_ANSWER_BODY)).toString('utf8'));
    // No header reads as NaN: the model's own count, if any, is used then.
    const counted = Number(response.headers['x-amzn-bedrock-input-token-count']);
    return { body: answer, ...(Number.isFinite(counted) ? { headerTokens: counted } : {}) };
  }

  private async errorAnswer(response: ProviderResponse): Promise<ProviderResponse> {
    const bytes = await readBody(response.body, MAX_ERROR_BODY);
    const name = awsErrorName(response.headers['x-amzn-errortype'] ?? safeJsonField(bytes, '__type'));
    const mapped = mapAwsError(name, response.status);
    const text = Buffer.from(messagesErrorBody(mapped, name, awsErrorMessage(bytes)));
    const headers: Record<string, string> = { 'x-should-retry': String(mapped.retry) };
    for (const header of ['retry-after', 'x-amzn-requestid']) if (response.headers[header]) headers[header] = response.headers[header]!;
    return bufferedAnswer(mapped.status, headers, text);
  }

  private async countAnswer(response: ProviderResponse): Promise<ProviderResponse> {
    const bytes = await readBody(response.body, MAX_ERROR_BODY);
    const inputTokens = (JSON.parse(bytes.toString('utf8')) as { inputTokens?: unknown }).inputTokens;
    return bufferedAnswer(200, {}, Buffer.from(JSON.stringify({ input_tokens: typeof inputTokens === 'number' ? inputTokens : 0 })));
  }

  close(): Promise<void> {
    return this.upstream.close();
  }
}

function safeJsonField(bytes: Buffer, field: string): string | undefined {
  try {
    const value = (JSON.parse(bytes.toString('utf8')) as Record<string, unknown>)[field];
    return typeof value === 'string' ? value.split('#').pop() : undefined;
  } catch {
    return undefined;
  }
}
