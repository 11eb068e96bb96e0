// A fake Azure OpenAI resource on 127.0.0.1: the v1 API (/openai/v1/chat/completions, /responses,
// /embeddings; the deployment as the body's model) and legacy deployments
// (/openai/deployments/{deployment}/chat/completions|embeddings?api-version=…, /openai/responses?api-version=…).
// The key comes as `api-key`, an Entra ID token as Bearer; anything else gets Azure's 401. Chat and
// Responses answer as JSON and as streams, with usage (cached tokens included).
// Proven against the openai SDK's AzureOpenAI and OpenAI clients in test/e2e/cloud-fakes-vendor-clients.test.ts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { chatFrames, chatJson } from '../translation/protocol-frames.ts';
import { piecesOf } from './claude-answers.ts';

export interface FakeAzureOptions {
  apiKey?: string;
  accessToken?: string;
  /** The deployments that exist (their names). */
  deployments: string[];
}

export interface AzureRequest {
  path: string;
  /** `v1` or the legacy api-version. */
  api: string;
  operation: 'chat' | 'responses' | 'embeddings';
  deployment: string;
  headers: IncomingMessage['headers'];
  body: any;
}

const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

function azureError(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { code, message } }));
}

export class FakeAzure {
  readonly requests: AzureRequest[] = [];
  answer = { text: 'Hello from GPT on Azure', usage: { input: 17, output: 6, cacheRead: 5 } };
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly options: FakeAzureOptions,
  ) {}

  static async start(options: FakeAzureOptions): Promise<FakeAzure> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const fake = new FakeAzure(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, options);
    server.on('connection', (socket) => {
      fake.sockets.add(socket);
      socket.on('close', () => fake.sockets.delete(socket));
    });
    server.on('request', (req, res) => void fake.serve(req, res).catch(() => res.destroy()));
    return fake;
  }

  reset(): void {
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private route(url: URL, body: any): { api: string; operation: AzureRequest['operation']; deployment: string } | undefined {
    const v1 = /^\/openai\/v1\/(chat\/completions|responses|embeddings)$/.exec(url.pathname);
    const version = url.searchParams.get('api-version');
    if (v1) return version ? undefined : { api: 'v1', operation: v1[1] === 'chat/completions' ? 'chat' : (v1[1] as 'responses' | 'embeddings'), deployment: String(body?.model) };
    if (!version) return undefined;
    if (url.pathname === '/openai/responses') return { api: version, operation: 'responses', deployment: String(body?.model) };
    const legacy = /^\/openai\/deployments\/([^/]+)\/(chat\/completions|embeddings)$/.exec(url.pathname);
    return legacy ? { api: version, operation: legacy[2] === 'embeddings' ? 'embeddings' : 'chat', deployment: decodeURIComponent(legacy[1]!) } : undefined;
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const keyOk = this.options.apiKey !== undefined && req.headers['api-key'] === this.options.apiKey;
    const tokenOk = this.options.accessToken !== undefined && req.headers.authorization === `Bearer ${this.options.accessToken}`;
    if (!keyOk && !tokenOk) {
      return azureError(res, 401, '401', 'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.');
    }
    let body: any;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return azureError(res, 400, 'BadRequest', 'The request body is not valid JSON.');
    }
    const url = new URL(req.url!, this.url);
    const route = req.method === 'POST' ? this.route(url, body) : undefined;
    if (!route) return azureError(res, 404, '404', 'Resource not found');
    if (!this.options.deployments.includes(route.deployment)) return azureError(res, 404, 'DeploymentNotFound', `The API deployment for this resource does not exist (${route.deployment}).`);
    this.requests.push({ path: req.url!, ...route, headers: req.headers, body });
    const { text, usage } = this.answer;
    if (route.operation === 'embeddings') {
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ object: 'list', model: route.deployment, data: inputs.map((_: unknown, index: number) => ({ object: 'embedding', index, embedding: [0.6, 0.8] })), usage: { prompt_tokens: 4, total_tokens: 4 } }),
      );
    }
    if (route.operation === 'chat') {
      if (!body.stream) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(chatJson(route.deployment, text, usage)));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const frames = chatFrames(route.deployment, piecesOf(text), usage);
      for (const frame of body.stream_options?.include_usage ? frames : frames.filter((f) => !f.includes('"choices":[]'))) res.write(frame);
      return void res.end();
    }
    this.responses(route.deployment, body, res);
  }

  private responses(model: string, body: any, res: ServerResponse): void {
    const { text, usage } = this.answer;
    const message = { id: 'msg_az1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] };
    const usageObject = { input_tokens: usage.input + usage.cacheRead, input_tokens_details: { cached_tokens: usage.cacheRead }, output_tokens: usage.output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: usage.input + usage.cacheRead + usage.output };
    const response = (status: string, output: unknown[], withUsage: boolean) => ({ id: 'resp_az1', object: 'response', created_at: 1700000000, status, model, output, usage: withUsage ? usageObject : null, error: null, incomplete_details: null });
    if (!body.stream) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(response('completed', [message], true)));
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let sequence = 0;
    const send = (type: string, fields: Record<string, unknown>) => res.write(sse({ type, sequence_number: sequence++, ...fields }, type));
    send('response.created', { response: response('in_progress', [], false) });
    send('response.in_progress', { response: response('in_progress', [], false) });
    send('response.output_item.added', { output_index: 0, item: { ...message, status: 'in_progress', content: [] } });
    send('response.content_part.added', { item_id: 'msg_az1', output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    for (const piece of piecesOf(text)) send('response.output_text.delta', { item_id: 'msg_az1', output_index: 0, content_index: 0, delta: piece });
    send('response.output_text.done', { item_id: 'msg_az1', output_index: 0, content_index: 0, text });
    send('response.content_part.done', { item_id: 'msg_az1', output_index: 0, content_index: 0, part: message.content[0] });
    send('response.output_item.done', { output_index: 0, item: message });
    send('response.completed', { response: response('completed', [message], true) });
    res.end();
  }
}
