// A fake Google Vertex AI on 127.0.0.1 with its own OAuth token endpoint (/token). The endpoint checks
// each JWT assertion: RS256 signature with the service account's public key, issuer, audience (the
// token_uri), scope, expiry; then issues an access token with a lifetime tests choose. The API checks
// the Bearer token (issued and not expired, or given to the fake as static) and serves Claude
// (rawPredict, streamRawPredict, count-tokens), Gemini (generateContent, streamGenerateContent
// with alt=sse, countTokens) and Google's embedding models (:predict with instances, one a call for
// gemini-embedding-001 and at most 250 for the others, as Vertex documents; :embedContent for newer
// Gemini embedding models) under /v1/projects/{project}/locations/{region}/publishers/….
// Proven against google-auth-library and @google/genai in test/e2e/cloud-fakes-vendor-clients.test.ts.
import { verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { claudeEvents, claudeJson, piecesOf, type ClaudeUsage } from './claude-answers.ts';
import { embeddingFor, estimateTokens } from '../fake-gemini-answers.ts';

export interface FakeVertexOptions {
  project: string;
  region: string;
  /** Seconds an issued token lives (default 3600). */
  tokenLifetimeSeconds?: number;
  /** Tokens accepted without being issued here (an operator's `gcloud auth print-access-token`). */
  staticTokens?: string[];
}

export interface VertexRequest {
  path: string;
  publisher: 'anthropic' | 'google';
  model: string;
  method: string;
  headers: IncomingMessage['headers'];
  body: any;
}

const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** Like Vertex, the fake refuses any other top-level key of a Claude request and any beta it does not know. */
const CLAUDE_KEYS = new Set(['anthropic_version', 'max_tokens', 'messages', 'system', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'tools', 'tool_choice', 'thinking', 'context_management', 'output_config', 'metadata', 'stream']);
const CLAUDE_BETAS = new Set(['interleaved-thinking-2025-05-14', 'context-1m-2025-08-07', 'context-management-2025-06-27', 'fine-grained-tool-streaming-2025-05-14', 'effort-2025-11-24']);

function googleError(res: ServerResponse, code: number, status: string, message: string): void {
  res.writeHead(code, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify({ error: { code, message, status } }));
}

function base64urlJson(part: string): any {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}

export class FakeVertex {
  readonly requests: VertexRequest[] = [];
  /** Assertions the token endpoint accepted, and its answers. */
  tokenRequests = 0;
  claudeAnswer = { text: 'Hello from Claude on Vertex', usage: { input: 13, output: 6, cacheRead: 4, cacheCreation: 1 } as ClaudeUsage };
  geminiAnswer = { text: 'Hello from Gemini on Vertex', usage: { promptTokenCount: 9, candidatesTokenCount: 5, cachedContentTokenCount: 2 } };
  /** Delay before the token endpoint answers (to see concurrent refreshes pile up). */
  tokenDelayMs = 0;
  private readonly issued = new Map<string, number>();
  /** The service account whose assertions the token endpoint accepts (its key file names this fake's token_uri, so it comes after start). */
  private account?: { email: string; publicKey: KeyObject };
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly options: FakeVertexOptions,
  ) {}

  static async start(options: FakeVertexOptions): Promise<FakeVertex> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const fake = new FakeVertex(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, options);
    server.on('connection', (socket) => {
      fake.sockets.add(socket);
      socket.on('close', () => fake.sockets.delete(socket));
    });
    server.on('request', (req, res) => void fake.serve(req, res).catch(() => res.destroy()));
    return fake;
  }

  get tokenUri(): string {
    return `${this.url}/token`;
  }

  trustAccount(account: { email: string; publicKey: KeyObject }): void {
    this.account = account;
  }

  /** Every issued token expires now (as after an hour). */
  expireIssuedTokens(): void {
    for (const token of this.issued.keys()) this.issued.set(token, 0);
  }

  reset(): void {
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url!, this.url);
    if (url.pathname === '/token') return this.token(raw, res);
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const known = token !== undefined && (this.options.staticTokens?.includes(token) || (this.issued.get(token) ?? 0) > Date.now());
    if (!known) return googleError(res, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
    const prefix = `/v1/projects/${this.options.project}/locations/${this.options.region}/publishers/`;
    const match = url.pathname.startsWith(prefix) ? /^(anthropic|google)\/models\/([^/:]+):(\w+)$/.exec(url.pathname.slice(prefix.length)) : null;
    if (req.method !== 'POST' || !match) return googleError(res, 404, 'NOT_FOUND', `no such resource: ${req.method} ${url.pathname}`);
    const [, publisher, model, method] = match as unknown as [string, 'anthropic' | 'google', string, string];
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      return googleError(res, 400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    }
    this.requests.push({ path: req.url!, publisher, model: decodeURIComponent(model), method, headers: req.headers, body });
    if (publisher === 'anthropic') return this.claude(decodeURIComponent(model), method, body, res, String(req.headers['anthropic-beta'] ?? ''));
    if (method === 'predict' || method === 'embedContent') return this.embed(decodeURIComponent(model), method, body, res);
    return this.gemini(decodeURIComponent(model), method, url, res);
  }

  private async token(raw: string, res: ServerResponse): Promise<void> {
    const form = new URLSearchParams(raw);
    const refuse = (description: string) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'invalid_grant', error_description: description }));
    };
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return refuse('grant_type must be jwt-bearer');
    const parts = (form.get('assertion') ?? '').split('.');
    if (parts.length !== 3 || !this.account) return refuse('Invalid JWT');
    const [header, payload, signature] = parts as [string, string, string];
    if (base64urlJson(header).alg !== 'RS256') return refuse('Invalid JWT: alg must be RS256');
    if (!verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), this.account.publicKey, Buffer.from(signature, 'base64url'))) return refuse('Invalid JWT Signature.');
    const claims = base64urlJson(payload);
    const now = Math.floor(Date.now() / 1000);
    if (claims.iss !== this.account.email) return refuse('Invalid issuer');
    if (claims.aud !== this.tokenUri) return refuse(`Invalid JWT: audience must be ${this.tokenUri}`);
    if (!String(claims.scope ?? '').split(' ').includes(SCOPE)) return refuse('Invalid scope');
    if (!(claims.exp > now && claims.iat <= now + 60)) return refuse('Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.');
    this.tokenRequests += 1;
    if (this.tokenDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.tokenDelayMs));
    const lifetime = this.options.tokenLifetimeSeconds ?? 3600;
    const token = `ya29.fake-${this.tokenRequests}-${Math.random().toString(36).slice(2)}`;
    this.issued.set(token, Date.now() + lifetime * 1000);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ access_token: token, expires_in: lifetime, token_type: 'Bearer' }));
  }

  private claude(model: string, method: string, body: any, res: ServerResponse, betas: string): void {
    if (body.anthropic_version !== 'vertex-2023-10-16') return googleError(res, 400, 'INVALID_ARGUMENT', 'anthropic_version: vertex-2023-10-16 is required');
    const invalid = (message: string) => void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message } }));
    for (const beta of betas.split(',').filter(Boolean)) if (!CLAUDE_BETAS.has(beta.trim())) return invalid(`Unexpected value(s) \`${beta}\` for the \`anthropic-beta\` header.`);
    const keys = model === 'count-tokens' ? new Set([...CLAUDE_KEYS, 'model']) : CLAUDE_KEYS;
    for (const field of Object.keys(body)) if (!keys.has(field)) return invalid(`${field}: Extra inputs are not permitted`);
    if (model === 'count-tokens' && method === 'rawPredict') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ input_tokens: JSON.stringify(body.messages).length >> 2 }));
    }
    const { text, usage } = this.claudeAnswer;
    if (method === 'rawPredict') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(claudeJson(model, text, usage)));
    if (method !== 'streamRawPredict' || body.stream !== true) return googleError(res, 400, 'INVALID_ARGUMENT', 'streamRawPredict needs "stream": true');
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
    for (const event of claudeEvents(model, piecesOf(text), usage)) res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
    res.end();
  }

  /** Vectors as the fake Gemini API makes them (the same text, the same vector), with Vertex's token statistics. */
  private embed(model: string, method: string, body: any, res: ServerResponse): void {
    const json = (value: unknown) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (method === 'embedContent') {
      const text = (body.content?.parts ?? []).map((p: any) => p?.text ?? '').join('');
      if (!text) return googleError(res, 400, 'INVALID_ARGUMENT', 'content is required');
      return json({ embedding: { values: embeddingFor(text, body.embedContentConfig?.outputDimensionality ?? 8) }, usageMetadata: { promptTokenCount: estimateTokens(text) }, truncated: false });
    }
    const instances: any[] = Array.isArray(body.instances) ? body.instances : [];
    if (instances.length === 0 || instances.some((i) => typeof i?.content !== 'string')) return googleError(res, 400, 'INVALID_ARGUMENT', 'instances must be a non-empty list of {content}');
    const limit = model.startsWith('gemini-embedding-001') ? 1 : 250;
    if (instances.length > limit) return googleError(res, 400, 'INVALID_ARGUMENT', `Unable to submit request because the model supports up to ${limit} instances per request, but ${instances.length} were sent.`);
    const size = body.parameters?.outputDimensionality ?? 8;
    json({
      predictions: instances.map((i) => ({ embeddings: { values: embeddingFor(i.content, size), statistics: { truncated: false, token_count: estimateTokens(i.content) } } })),
      metadata: { billableCharacterCount: instances.reduce((n, i) => n + i.content.length, 0) },
    });
  }

  private gemini(model: string, method: string, url: URL, res: ServerResponse): void {
    const { text, usage } = this.geminiAnswer;
    const metadata = { ...usage, totalTokenCount: usage.promptTokenCount + usage.candidatesTokenCount };
    if (method === 'countTokens') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ totalTokens: usage.promptTokenCount }));
    const candidate = (part: string, last: boolean) => ({ content: { role: 'model', parts: [{ text: part }] }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 });
    if (method === 'generateContent') {
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ candidates: [candidate(text, true)], usageMetadata: metadata, modelVersion: model }));
    }
    if (method !== 'streamGenerateContent' || url.searchParams.get('alt') !== 'sse') return googleError(res, 400, 'INVALID_ARGUMENT', `unsupported method ${method} (streams need alt=sse here)`);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const pieces = piecesOf(text);
    pieces.forEach((piece, i) => {
      const last = i === pieces.length - 1;
      res.write(`data: ${JSON.stringify({ candidates: [candidate(piece, last)], ...(last ? { usageMetadata: metadata } : {}), modelVersion: model })}\r\n\r\n`);
    });
    res.end();
  }
}
