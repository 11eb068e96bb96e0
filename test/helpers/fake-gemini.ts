// A fake Gemini API (Google AI Studio, v1beta) on 127.0.0.1, port 0, built on FakeUpstream: models
// list/get, generateContent, streamGenerateContent (SSE with ?alt=sse, a JSON array without it),
// countTokens, embedContent, batchEmbedContents. The key comes as x-goog-api-key or ?key=. Tests
// script answers (text, thoughts, function calls that carry a thoughtSignature, usage, finish reason,
// errors) and read back what arrived, parsed. Proven against @google/genai and the Gemini CLI in
// test/e2e/fake-gemini-genai-sdk.test.ts and test/e2e/gemini-cli-fake.test.ts.
import type { IncomingHttpHeaders } from 'node:http';
import { FakeUpstream, jsonReply, sseReply, type RecordedRequest, type Reply, type Step } from './fake-upstream.ts';
import { waitFor } from './wait-for.ts';
import {
  DEFAULT_GEMINI_MODELS, contentText, cut, embeddingFor, errorBody, estimateTokens, forcedCall, lastUserText, modelResource, promptTokens, valueFor,
  type GeminiError, type GeminiModel, type GeminiPart, type GeminiUsage,
} from './fake-gemini-answers.ts';

export { DEFAULT_GEMINI_MODELS, errorBody, type GeminiError, type GeminiModel, type GeminiPart, type GeminiUsage } from './fake-gemini-answers.ts';

export type GeminiAction = 'list' | 'get' | 'generateContent' | 'streamGenerateContent' | 'countTokens' | 'embedContent' | 'batchEmbedContents';

export interface GeminiRequest {
  method: string;
  /** Path with the query, exactly as requested. */
  path: string;
  pathname: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined for GET or a body that is not JSON). */
  body: any;
  /** `v1beta` or `v1`. */
  version?: string;
  /** The model id from the path, without `models/`. */
  model?: string;
  action?: GeminiAction;
  /** The key the caller presented, and where. */
  apiKey?: string;
  keySource?: 'x-goog-api-key' | 'query' | 'bearer';
  raw: RecordedRequest;
}

export interface GeminiFunctionCall {
  name: string;
  args?: Record<string, unknown>;
  id?: string;
  /** Issued automatically on the first call of a turn (as Gemini does for parallel calls); a string sets it, false leaves it out. */
  thoughtSignature?: string | false;
}

export interface GeminiAnswer {
  text?: string;
  /** A thought summary part (`thought: true`) before the answer. */
  thought?: string;
  functionCalls?: GeminiFunctionCall[];
  /** The model turn's parts as is (replaces text/thought/functionCalls); function calls still get a signature. */
  parts?: GeminiPart[];
  /** Put a thoughtSignature on the last text part (what Gemini 3 does on a turn without calls). */
  textSignature?: boolean;
  /** Default STOP. */
  finishReason?: string;
  /** Merged over the computed figures; totalTokenCount is recomputed unless given. */
  usage?: Partial<GeminiUsage>;
  modelVersion?: string;
  /** Pieces each text part is cut into when streamed (default 3). */
  streamChunks?: number;
  /** Pause between stream chunks, and what happens after the last one. */
  stream?: { delayMs?: number; then?: 'end' | 'destroy' | 'hang' };
  /** A generateContent answer body as is (no parts, signatures or usage added). */
  response?: Record<string, unknown>;
  /** Stream chunks (whole GenerateContentResponse objects) as is, as SSE or as the JSON array the request asked for. */
  chunks?: Array<Record<string, unknown>>;
  /** Answer with this error instead (Gemini's shape). */
  error?: GeminiError;
  /** Full control over the HTTP answer (see fake-upstream.ts). */
  reply?: Reply;
}

export type GeminiScript = GeminiAnswer | ((request: GeminiRequest) => GeminiAnswer | undefined | Promise<GeminiAnswer | undefined>);

export interface FakeGeminiOptions {
  /** Keys accepted (default ['test-gemini-key']). */
  apiKeys?: string[];
  models?: GeminiModel[];
  /** Accept `Authorization: Bearer <key>` too (the real API reads Bearer as an OAuth token and answers 401). */
  acceptBearer?: boolean;
  /** Answer 400 when a functionCall the fake issued comes back without its thoughtSignature (Gemini 3 behaviour). */
  checkThoughtSignatures?: boolean;
  /** With the check on, accept Google's documented dummy `skip_thought_signature_validator`. */
  acceptSkipSignature?: boolean;
}

const SKIP_SIGNATURE = 'skip_thought_signature_validator';
const ROUTE = /^\/(v1beta|v1)\/models(?:\/([^/:]+)(?::([A-Za-z]+))?)?$/;

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stableJson((value as any)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export class FakeGemini {
  readonly requests: GeminiRequest[] = [];
  /** Signatures issued, by function call (`name` + arguments); checked when the call comes back. */
  readonly issuedSignatures = new Map<string, string>();
  checkThoughtSignatures: boolean;
  acceptSkipSignature: boolean;
  /** Overrides countTokens' totalTokens. */
  tokenCount: number | undefined;
  private readonly queue: GeminiScript[] = [];
  private fallback: GeminiScript | undefined;
  private readonly apiKeys: Set<string>;
  /** The models served (list, get, and which ids the generation routes accept); tests may add some. */
  readonly models: GeminiModel[];
  private responseCounter = 0;

  private constructor(
    readonly upstream: FakeUpstream,
    private readonly options: FakeGeminiOptions,
  ) {
    this.apiKeys = new Set(options.apiKeys ?? ['test-gemini-key']);
    this.models = [...(options.models ?? DEFAULT_GEMINI_MODELS)];
    this.checkThoughtSignatures = options.checkThoughtSignatures ?? false;
    this.acceptSkipSignature = options.acceptSkipSignature ?? false;
  }

  static async start(options: FakeGeminiOptions = {}): Promise<FakeGemini> {
    const fake = new FakeGemini(await FakeUpstream.start(), options);
    fake.upstream.handle((raw) => fake.serve(raw));
    return fake;
  }

  /** The API root without a version (what GOOGLE_GEMINI_BASE_URL and the SDK's baseUrl take). */
  get url(): string {
    return this.upstream.url;
  }

  get apiKey(): string {
    return [...this.apiKeys][0]!;
  }

  /** Answers for the next generation requests, one each, in order; then the fallback, then the default. */
  script(...answers: GeminiScript[]): void {
    this.queue.push(...answers);
  }

  /** How generation requests are answered once the script is used up (undefined: the default answer). */
  answerWith(script: GeminiScript | undefined): void {
    this.fallback = script;
  }

  /** The generateContent and streamGenerateContent requests, in order. */
  generations(): GeminiRequest[] {
    return this.requests.filter((r) => r.action === 'generateContent' || r.action === 'streamGenerateContent');
  }

  last(): GeminiRequest {
    const request = this.requests.at(-1);
    if (!request) throw new Error('the fake Gemini API received no request');
    return request;
  }

  async waitForGenerations(count = 1, timeoutMs = 30_000): Promise<GeminiRequest> {
    await waitFor(() => this.generations().length >= count, { what: `${count} generation request(s) at the fake Gemini API`, timeoutMs });
    return this.generations()[count - 1]!;
  }

  reset(): void {
    this.requests.length = 0;
    this.queue.length = 0;
    this.fallback = undefined;
    this.issuedSignatures.clear();
    this.upstream.reset();
    this.upstream.handle((raw) => this.serve(raw));
  }

  close(): Promise<void> {
    return this.upstream.close();
  }

  private async serve(raw: RecordedRequest): Promise<Reply> {
    const url = new URL(raw.path, 'http://fake');
    const request: GeminiRequest = { method: raw.method, path: raw.path, pathname: url.pathname, query: url.searchParams, headers: raw.headers, body: undefined, raw };
    if (raw.body.length > 0) {
      try {
        request.body = raw.json();
      } catch {
        request.body = undefined;
      }
    }
    this.requests.push(request);

    const match = ROUTE.exec(url.pathname);
    const action: GeminiAction | undefined = !match ? undefined : !match[2] ? 'list' : !match[3] ? 'get' : (match[3] as GeminiAction);
    const known = ['list', 'get', 'generateContent', 'streamGenerateContent', 'countTokens', 'embedContent', 'batchEmbedContents'];
    const wantsGet = action === 'list' || action === 'get';
    if (!match || !known.includes(action!) || raw.method !== (wantsGet ? 'GET' : 'POST')) {
      return this.error({ code: 404, message: `Method not found: ${raw.method} ${url.pathname}` });
    }
    request.version = match[1];
    request.action = action;
    request.model = match[2] ? decodeURIComponent(match[2]) : undefined;

    const denied = this.authenticate(request);
    if (denied) return denied;

    if (action === 'list') return this.list(url.searchParams);
    const model = this.models.find((m) => m.id === request.model);
    const method = action === 'streamGenerateContent' ? 'generateContent' : action === 'batchEmbedContents' ? 'embedContent' : action!;
    if (!model || (action !== 'get' && !model.methods.includes(method))) {
      return this.error({
        code: 404,
        message: `models/${request.model} is not found for API version ${request.version}, or is not supported for ${method}. Call ListModels to see the list of available models and their supported methods.`,
      });
    }
    if (action === 'get') return jsonReply(200, modelResource(model));
    if (request.body === undefined || typeof request.body !== 'object' || Array.isArray(request.body)) {
      return this.error({ code: 400, message: 'Invalid JSON payload received. Expected an object.' });
    }
    if (action === 'countTokens') return this.countTokens(request);
    if (action === 'embedContent') return this.embed(request);
    if (action === 'batchEmbedContents') return this.batchEmbed(request);
    return this.generate(request);
  }

  private error(error: GeminiError): Reply {
    return jsonReply(error.code, errorBody(error), { 'content-type': 'application/json; charset=UTF-8' });
  }

  /** Missing key 403 PERMISSION_DENIED, wrong key 400 INVALID_ARGUMENT (API_KEY_INVALID), a Bearer token 401: as the real API answers. */
  private authenticate(request: GeminiRequest): Reply | undefined {
    const header = request.headers['x-goog-api-key'];
    const bearer = /^Bearer\s+(.+)$/i.exec(String(request.headers.authorization ?? ''))?.[1];
    if (typeof header === 'string' && header) [request.apiKey, request.keySource] = [header, 'x-goog-api-key'];
    else if (request.query.get('key')) [request.apiKey, request.keySource] = [request.query.get('key')!, 'query'];
    else if (bearer) [request.apiKey, request.keySource] = [bearer, 'bearer'];
    if (request.keySource === 'bearer' && !this.options.acceptBearer) {
      return this.error({ code: 401, message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.' });
    }
    if (!request.apiKey) {
      return this.error({ code: 403, message: `Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.` });
    }
    if (!this.apiKeys.has(request.apiKey)) {
      return this.error({
        code: 400,
        message: 'API key not valid. Please pass a valid API key.',
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }],
      });
    }
    return undefined;
  }

  private list(query: URLSearchParams): Reply {
    const pageSize = Math.max(1, Number(query.get('pageSize')) || 50);
    const offset = Number(query.get('pageToken')) || 0;
    const page = this.models.slice(offset, offset + pageSize).map(modelResource);
    const next = offset + pageSize < this.models.length ? String(offset + pageSize) : undefined;
    return jsonReply(200, { models: page, ...(next ? { nextPageToken: next } : {}) });
  }

  private countTokens(request: GeminiRequest): Reply {
    const total = this.tokenCount ?? promptTokens(request.body);
    return jsonReply(200, { totalTokens: total, promptTokensDetails: [{ modality: 'TEXT', tokenCount: total }] });
  }

  private embed(request: GeminiRequest): Reply {
    const body = request.body;
    return jsonReply(200, { embedding: { values: embeddingFor(contentText(body.content), body.outputDimensionality ?? 8) } });
  }

  private batchEmbed(request: GeminiRequest): Reply {
    const requests: any[] = Array.isArray(request.body.requests) ? request.body.requests : [];
    if (requests.length === 0) return this.error({ code: 400, message: '* BatchEmbedContentsRequest.requests: contents is not specified' });
    const wrong = requests.findIndex((r) => r?.model !== undefined && r.model !== `models/${request.model}`);
    if (wrong !== -1) {
      return this.error({ code: 400, message: `* BatchEmbedContentsRequest.requests[${wrong}].model: unexpected model name format or model mismatch (models/${request.model} expected)` });
    }
    return jsonReply(200, { embeddings: requests.map((r) => ({ values: embeddingFor(contentText(r.content), r.outputDimensionality ?? 8) })) });
  }

  private async generate(request: GeminiRequest): Promise<Reply> {
    if (!Array.isArray(request.body.contents) || request.body.contents.length === 0) {
      return this.error({ code: 400, message: '* GenerateContentRequest.contents: contents is not specified' });
    }
    const refused = this.checkSignatures(request);
    if (refused) return refused;
    const script = this.queue.shift() ?? this.fallback;
    const scripted = typeof script === 'function' ? await script(request) : script;
    const answer = scripted ?? this.defaultAnswer(request);
    if (answer.reply) return answer.reply;
    if (answer.error) return this.error(answer.error);
    if (request.action === 'generateContent' && answer.response) return jsonReply(200, answer.response);
    if (request.action === 'streamGenerateContent' && answer.chunks) return this.streamReply(request, answer.chunks, answer.stream);
    const parts = this.partsOf(answer);
    const usage = this.usageOf(request, parts, answer.usage);
    const responseId = `fake-${++this.responseCounter}`;
    const modelVersion = answer.modelVersion ?? request.model!;
    const finishReason = answer.finishReason ?? 'STOP';
    if (request.action === 'generateContent') {
      return jsonReply(200, { candidates: [{ content: { parts, role: 'model' }, finishReason, index: 0 }], usageMetadata: usage, modelVersion, responseId });
    }
    const chunks = this.streamChunks(parts, answer.streamChunks ?? 3).map((chunkParts, i, all) => {
      const lastChunk = i === all.length - 1;
      return {
        candidates: [{ content: { parts: chunkParts, role: 'model' }, ...(lastChunk ? { finishReason } : {}), index: 0 }],
        // Gemini repeats usage on every chunk; only the last has the final figures.
        usageMetadata: lastChunk ? usage : { promptTokenCount: usage.promptTokenCount, totalTokenCount: usage.promptTokenCount },
        modelVersion,
        responseId,
      };
    });
    return this.streamReply(request, chunks, answer.stream);
  }

  /** SSE with alt=sse; otherwise one JSON array written element by element, as the real API does. */
  private streamReply(request: GeminiRequest, chunks: unknown[], stream: GeminiAnswer['stream'] = {}): Reply {
    if (request.query.get('alt') === 'sse') {
      return sseReply(chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`), { delayMs: stream.delayMs, then: stream.then });
    }
    const steps: Step[] = [];
    chunks.forEach((chunk, i) => {
      if (i > 0 && stream.delayMs) steps.push({ delayMs: stream.delayMs });
      steps.push({ write: `${i === 0 ? '[' : '\n,\r\n'}${JSON.stringify(chunk, null, 2)}` });
    });
    if (stream.then === 'destroy') steps.push({ destroy: true });
    else if (stream.then === 'hang') steps.push({ hang: true });
    else steps.push({ write: chunks.length === 0 ? '[]' : '\n]' });
    return { status: 200, headers: { 'content-type': 'application/json; charset=UTF-8' }, steps };
  }

  /**
   * The call `mode: ANY` forces; JSON that fits the response schema when JSON is asked for (Gemini
   * CLI's model router asks so); otherwise echo text. A thought comes first when includeThoughts asks.
   */
  private defaultAnswer(request: GeminiRequest): GeminiAnswer {
    const forced = forcedCall(request.body);
    if (forced) return { functionCalls: [forced] };
    const config = request.body.generationConfig ?? {};
    const heard = lastUserText(request.body);
    const thought = config.thinkingConfig?.includeThoughts ? `Thinking about: ${heard || 'the tool result'}` : undefined;
    if (config.responseMimeType === 'application/json') {
      return { thought, text: JSON.stringify(valueFor(config.responseJsonSchema ?? config.responseSchema ?? { type: 'object' })) };
    }
    return { thought, text: heard ? `Fake Gemini heard: ${heard}` : 'Fake Gemini received the function result.' };
  }

  private partsOf(answer: GeminiAnswer): GeminiPart[] {
    const parts: GeminiPart[] = answer.parts
      ? answer.parts.map((p) => ({ ...p }))
      : [
          ...(answer.thought ? [{ text: answer.thought, thought: true }] : []),
          ...(answer.text !== undefined ? [{ text: answer.text }] : []),
          ...(answer.functionCalls ?? []).map((call) => ({
            functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args: call.args ?? {} },
            ...(typeof call.thoughtSignature === 'string' ? { thoughtSignature: call.thoughtSignature } : {}),
            ...(call.thoughtSignature === false ? { noSignature: true } : {}),
          })),
        ];
    const firstCall = parts.findIndex((p) => p.functionCall && !p.noSignature);
    parts.forEach((part, i) => {
      if (!part.functionCall) return;
      if (i === firstCall && !part.thoughtSignature) {
        part.thoughtSignature = Buffer.from(`fake-gemini-signature:${this.issuedSignatures.size + 1}:${part.functionCall.name}`).toString('base64');
      }
      delete part.noSignature;
      if (part.thoughtSignature) this.issuedSignatures.set(this.callKey(part.functionCall), part.thoughtSignature);
    });
    let lastText = -1;
    parts.forEach((p, i) => {
      if (typeof p.text === 'string' && !p.thought) lastText = i;
    });
    if (answer.textSignature && firstCall === -1 && lastText !== -1 && !parts[lastText]!.thoughtSignature) {
      parts[lastText]!.thoughtSignature = Buffer.from(`fake-gemini-text-signature:${this.responseCounter + 1}`).toString('base64');
    }
    return parts;
  }

  private callKey(call: any): string {
    return `${call?.name}\u0000${stableJson(call?.args ?? {})}`;
  }

  /** Gemini 3: a functionCall in the history must come back with the signature it was issued with. */
  private checkSignatures(request: GeminiRequest): Reply | undefined {
    if (!this.checkThoughtSignatures) return undefined;
    const contents: any[] = request.body.contents;
    for (let i = 0; i < contents.length; i++) {
      if (contents[i]?.role !== 'model') continue;
      for (const part of contents[i].parts ?? []) {
        if (!part?.functionCall) continue;
        const issued = this.issuedSignatures.get(this.callKey(part.functionCall));
        if (!issued || part.thoughtSignature === issued) continue;
        if (part.thoughtSignature === SKIP_SIGNATURE && this.acceptSkipSignature) continue;
        const message = part.thoughtSignature
          ? `Thought signature is not valid for function call \`${part.functionCall.name}\`, position ${i + 1}.`
          : `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${part.functionCall.name}\` , position ${i + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`;
        return this.error({ code: 400, message });
      }
    }
    return undefined;
  }

  private usageOf(request: GeminiRequest, parts: GeminiPart[], scripted: Partial<GeminiUsage> = {}): GeminiUsage {
    const thoughts = parts.filter((p) => p.thought).map((p) => p.text ?? '').join('');
    const answer = parts.filter((p) => !p.thought).map((p) => (typeof p.text === 'string' ? p.text : p.functionCall ? JSON.stringify(p.functionCall) : ''));
    const usage: GeminiUsage = {
      promptTokenCount: promptTokens(request.body),
      candidatesTokenCount: estimateTokens(answer.join('')),
      ...(thoughts ? { thoughtsTokenCount: estimateTokens(thoughts) } : {}),
      totalTokenCount: 0,
      ...scripted,
    };
    if (scripted.totalTokenCount === undefined) {
      usage.totalTokenCount = usage.promptTokenCount + (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0) + (usage.toolUsePromptTokenCount ?? 0);
    }
    return usage;
  }

  /** Thoughts and texts cut into pieces, each function call whole in its own chunk. */
  private streamChunks(parts: GeminiPart[], pieces: number): GeminiPart[][] {
    const chunks: GeminiPart[][] = [];
    for (const part of parts) {
      if (typeof part.text !== 'string' || part.functionCall) {
        chunks.push([part]);
        continue;
      }
      const { text, thoughtSignature, ...rest } = part;
      const texts = cut(text, pieces);
      texts.forEach((piece, i) => chunks.push([{ ...rest, text: piece, ...(i === texts.length - 1 && thoughtSignature ? { thoughtSignature } : {}) }]));
    }
    return chunks.length > 0 ? chunks : [[{ text: '' }]];
  }
}
