// A fake Amazon Bedrock runtime on 127.0.0.1: InvokeModel and InvokeModelWithResponseStream for
// Claude, Converse and ConverseStream for other models (event-stream framing written with AWS's
// codec), CountTokens, and InvokeModel for Titan and Cohere embedding models. Every request's signature is
// checked by recomputing it with AWS's own signer from the credentials the fake was given (or a
// Bedrock API key as Bearer); a bad one gets the AWS error Bedrock gives. Tests script failures
// (throttling, validation, model not ready, mid-stream exceptions) and read back what arrived.
// Proven against @aws-sdk/client-bedrock-runtime in test/e2e/cloud-fakes-vendor-clients.test.ts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { claudeEvents, claudeJson, piecesOf, type ClaudeUsage } from './claude-answers.ts';
import { embeddingFor, estimateTokens } from '../fake-gemini-answers.ts';

export interface FakeBedrockOptions {
  region: string;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  apiKey?: string;
}

export interface BedrockRequest {
  path: string;
  /** The model id from the path, decoded. */
  model: string;
  action: 'invoke' | 'invoke-with-response-stream' | 'converse' | 'converse-stream' | 'count-tokens';
  headers: IncomingMessage['headers'];
  body: any;
  /** How the exchange ended: whole, or the caller left before the answer was complete. */
  ended: Promise<'completed' | 'aborted-by-client'>;
}

/** An AWS error answer; an exception after a few stream events; or a stream that stops sending after a few events and never ends. */
export type BedrockFailure = { status: number; type: string; message: string } | { midStream: string; message: string } | { hangAfterEvents: number };

const codec = new EventStreamCodec(toUtf8, fromUtf8);
/** Like Bedrock, the fake refuses any other top-level key and any beta it does not know. */
const CLAUDE_KEYS = new Set(['anthropic_version', 'anthropic_beta', 'max_tokens', 'messages', 'system', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'tools', 'tool_choice', 'thinking', 'context_management', 'output_config']);
const CLAUDE_BETAS = new Set(['interleaved-thinking-2025-05-14', 'context-1m-2025-08-07', 'context-management-2025-06-27', 'effort-2025-11-24', 'token-efficient-tools-2025-02-19', 'output-128k-2025-02-19', 'tool-search-tool-2025-10-19']);
const AWS_TYPE_URL = ':http://internal.amazon.com/coral/com.amazon.bedrock/';

function awsError(res: ServerResponse, status: number, type: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': `${type}${AWS_TYPE_URL}`, 'x-amzn-requestid': 'fake-request-id' });
  res.end(JSON.stringify({ message }));
}

function frame(headers: Record<string, string>, body: unknown): Uint8Array {
  const typed: Record<string, { type: 'string'; value: string }> = {};
  for (const [name, value] of Object.entries(headers)) typed[name] = { type: 'string', value };
  return codec.encode({ headers: typed, body: fromUtf8(JSON.stringify(body)) });
}

export class FakeBedrock {
  readonly requests: BedrockRequest[] = [];
  /** What Claude answers (its usage too). */
  answer = { text: 'Hello from Claude on Bedrock', usage: { input: 11, output: 6, cacheRead: 3, cacheCreation: 2 } as ClaudeUsage };
  /** What other models answer through Converse. */
  converseAnswer = { text: 'Hello from Nova on Bedrock', usage: { inputTokens: 8, outputTokens: 5, cacheReadInputTokens: 2, cacheWriteInputTokens: 0 } };
  private failures: BedrockFailure[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly signer?: SignatureV4;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly options: FakeBedrockOptions,
  ) {
    if (options.credentials) this.signer = new SignatureV4({ service: 'bedrock', region: options.region, credentials: options.credentials, sha256: Hash.bind(null, 'sha256') });
  }

  static async start(options: FakeBedrockOptions): Promise<FakeBedrock> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const fake = new FakeBedrock(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, options);
    server.on('connection', (socket) => {
      fake.sockets.add(socket);
      socket.on('close', () => fake.sockets.delete(socket));
    });
    server.on('request', (req, res) => void fake.serve(req, res).catch(() => res.destroy()));
    return fake;
  }

  /** The next requests fail this way, one failure each, in order. */
  failNext(...failures: BedrockFailure[]): void {
    this.failures.push(...failures);
  }

  reset(): void {
    this.requests.length = 0;
    this.failures = [];
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** undefined when the signature (or API key) is right; otherwise the AWS error to answer. */
  private async refusal(req: IncomingMessage, body: Buffer): Promise<{ status: number; type: string; message: string } | undefined> {
    const authorization = req.headers.authorization ?? '';
    if (this.options.apiKey && authorization.startsWith('Bearer ')) {
      return authorization.slice(7) === this.options.apiKey ? undefined : { status: 403, type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
    }
    const parsed = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(authorization);
    if (!parsed || !this.signer) return { status: 403, type: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' };
    const [, keyId, , region, service, signedHeaders] = parsed;
    if (keyId !== this.options.credentials!.accessKeyId) return { status: 403, type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
    if (region !== this.options.region || service !== 'bedrock') return { status: 403, type: 'InvalidSignatureException', message: `Credential should be scoped to a valid region and service (got ${region}/${service}).` };
    const amzDate = String(req.headers['x-amz-date'] ?? '');
    const date = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
    if (!date) return { status: 400, type: 'IncompleteSignatureException', message: 'Missing X-Amz-Date.' };
    const headers: Record<string, string> = {};
    for (const name of signedHeaders!.split(';')) headers[name] = String(req.headers[name] ?? '');
    const url = new URL(req.url!, 'http://placeholder');
    const query: Record<string, string> = {};
    url.searchParams.forEach((value, name) => (query[name] = value));
    const expected = await this.signer.sign(
      { method: req.method!, protocol: 'http:', hostname: '127.0.0.1', path: req.url!.split('?')[0]!, query, headers, body } as never,
      { signingDate: new Date(Date.UTC(+date[1]!, +date[2]! - 1, +date[3]!, +date[4]!, +date[5]!, +date[6]!)) },
    );
    const ours = String((expected as unknown as { headers: Record<string, string> }).headers.authorization);
    if (ours !== authorization) {
      return { status: 403, type: 'InvalidSignatureException', message: 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.' };
    }
    return undefined;
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const refused = await this.refusal(req, raw);
    if (refused) return awsError(res, refused.status, refused.type, refused.message);
    const match = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|converse|converse-stream|count-tokens)$/.exec(req.url!.split('?')[0]!);
    if (req.method !== 'POST' || !match) return awsError(res, 404, 'UnknownOperationException', `no operation at ${req.method} ${req.url}`);
    const model = decodeURIComponent(match[1]!);
    const action = match[2] as BedrockRequest['action'];
    let body: any;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return awsError(res, 400, 'ValidationException', 'Malformed input request, please reformat your input and try again.');
    }
    const ended = new Promise<'completed' | 'aborted-by-client'>((resolve) => res.once('close', () => resolve(res.writableFinished ? 'completed' : 'aborted-by-client')));
    this.requests.push({ path: req.url!, model, action, headers: req.headers, body, ended });
    const failure = this.failures.shift();
    if (failure && 'status' in failure) return awsError(res, failure.status, failure.type, failure.message);
    if (action === 'count-tokens') {
      // The invokeModel body is a blob: base64 in JSON, as AWS's JSON protocols write blobs.
      const messages = body.input.invokeModel ? JSON.parse(Buffer.from(body.input.invokeModel.body, 'base64').toString('utf8')).messages : body.input.converse.messages;
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ inputTokens: JSON.stringify(messages).length >> 2 }));
    }
    if (action === 'converse' || action === 'converse-stream') return this.converse(action, body, failure, res);
    if (action === 'invoke' && /amazon\.titan-embed-|cohere\.embed-/.test(model)) return this.embed(model, body, res);
    if (body.anthropic_version !== 'bedrock-2023-05-31') return awsError(res, 400, 'ValidationException', 'anthropic_version: invalid or missing');
    for (const field of Object.keys(body)) if (!CLAUDE_KEYS.has(field)) return awsError(res, 400, 'ValidationException', `extraneous key [${field}] is not permitted`);
    for (const beta of body.anthropic_beta ?? []) if (!CLAUDE_BETAS.has(beta)) return awsError(res, 400, 'ValidationException', `invalid beta flag: ${beta}`);
    if (!Number.isInteger(body.max_tokens)) return awsError(res, 400, 'ValidationException', 'max_tokens: field required');
    const { text, usage } = this.answer;
    if (action === 'invoke') {
      return void res.writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': 'fake-request-id' }).end(JSON.stringify(claudeJson(model, text, usage)));
    }
    res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': 'fake-request-id' });
    const events = claudeEvents(model, piecesOf(text), usage);
    for (const [i, event] of events.entries()) {
      if (failure && 'hangAfterEvents' in failure && i === failure.hangAfterEvents) return;
      if (failure && 'midStream' in failure && i === 3) {
        res.write(frame({ ':message-type': 'exception', ':exception-type': failure.midStream, ':content-type': 'application/json' }, { message: failure.message }));
        break;
      }
      const payload = event.type === 'message_stop' ? { ...event, 'amazon-bedrock-invocationMetrics': { inputTokenCount: usage.input, outputTokenCount: usage.output } } : event;
      res.write(frame({ ':event-type': 'chunk', ':message-type': 'event', ':content-type': 'application/json' }, { bytes: Buffer.from(JSON.stringify(payload)).toString('base64'), p: 'abcdefghij' }));
    }
    res.end();
  }

  /**
   * Titan Text Embeddings (one inputText; dimensions 256, 512 or 1024 on v2) and Cohere Embed (up to
   * 96 texts with a required input_type; output_dimension on v4, whose vectors come by type), with
   * Bedrock's input token count header. Vectors as the fake Gemini makes them, 8 numbers by default.
   */
  private embed(model: string, body: any, res: ServerResponse): void {
    const malformed = (why: string) => awsError(res, 400, 'ValidationException', `Malformed input request: ${why}, please reformat your input and try again.`);
    const answer = (value: unknown, tokens: number) =>
      void res.writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': 'fake-request-id', 'x-amzn-bedrock-input-token-count': String(tokens) }).end(JSON.stringify(value));
    if (model.includes('titan-embed')) {
      const allowed = model.includes('text-v1') ? ['inputText'] : ['inputText', 'dimensions', 'normalize', 'embeddingTypes'];
      for (const key of Object.keys(body)) if (!allowed.includes(key)) return malformed(`#: extraneous key [${key}] is not permitted`);
      if (typeof body.inputText !== 'string') return malformed('#: required key [inputText] not found');
      if (body.dimensions !== undefined && ![256, 512, 1024].includes(body.dimensions)) return malformed(`#/dimensions: ${body.dimensions} is not a valid enum value`);
      const tokens = estimateTokens(body.inputText);
      return answer({ embedding: embeddingFor(body.inputText, body.dimensions ?? 8), inputTextTokenCount: tokens }, tokens);
    }
    const v4 = model.includes('embed-v4');
    const allowed = ['texts', 'input_type', 'truncate', 'embedding_types', ...(v4 ? ['output_dimension'] : [])];
    for (const key of Object.keys(body)) if (!allowed.includes(key)) return malformed(`#: extraneous key [${key}] is not permitted`);
    const texts: unknown[] = Array.isArray(body.texts) ? body.texts : [];
    if (texts.length === 0 || texts.length > 96 || !texts.every((t) => typeof t === 'string')) return malformed('#/texts: expected 1 to 96 strings');
    if (!['search_document', 'search_query', 'classification', 'clustering'].includes(body.input_type)) return malformed('#: required key [input_type] not found');
    const vectors = (texts as string[]).map((t) => embeddingFor(t, body.output_dimension ?? 8));
    const tokens = (texts as string[]).reduce((n, t) => n + estimateTokens(t), 0);
    answer({ id: 'fake-embed-id', texts, ...(v4 ? { embeddings: { float: vectors }, response_type: 'embeddings_by_type' } : { embeddings: vectors, response_type: 'embeddings_floats' }) }, tokens);
  }

  private converse(action: 'converse' | 'converse-stream', body: any, failure: BedrockFailure | undefined, res: ServerResponse): void {
    if (!Array.isArray(body.messages) || body.messages.some((m: any) => !Array.isArray(m.content))) return awsError(res, 400, 'ValidationException', 'messages: each message needs a content list');
    const usesTools = JSON.stringify(body.messages).includes('"toolUse"');
    if (usesTools && !body.toolConfig) return awsError(res, 400, 'ValidationException', 'The toolConfig field must be defined when using toolUse and toolResult content blocks.');
    if ('model' in body || 'max_tokens' in body) return awsError(res, 400, 'ValidationException', 'extraneous key is not permitted');
    const { text, usage } = this.converseAnswer;
    if (action === 'converse') {
      const answer = { output: { message: { role: 'assistant', content: [{ text }] } }, stopReason: 'end_turn', usage: { ...usage, totalTokens: usage.inputTokens + usage.outputTokens }, metrics: { latencyMs: 12 } };
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    }
    res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
    const event = (type: string, payload: unknown) => res.write(frame({ ':event-type': type, ':message-type': 'event', ':content-type': 'application/json' }, payload));
    event('messageStart', { role: 'assistant' });
    for (const [i, piece] of piecesOf(text).entries()) {
      if (failure && 'midStream' in failure && i === 1) {
        res.write(frame({ ':message-type': 'exception', ':exception-type': failure.midStream, ':content-type': 'application/json' }, { message: failure.message }));
        return void res.end();
      }
      event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: piece } });
    }
    event('contentBlockStop', { contentBlockIndex: 0 });
    event('messageStop', { stopReason: 'end_turn' });
    event('metadata', { usage: { ...usage, totalTokens: usage.inputTokens + usage.outputTokens }, metrics: { latencyMs: 12 } });
    res.end();
  }
}
