// One short, real POST /v1/messages as the client would send it: its base address (the proxy when
// healthy, else the service), its credential header, the model it would use, a one-word prompt and
// max_tokens 1. It may cost a few tokens; `--no-request` leaves it out. The answer is kept with who
// gave it: the service itself, an upstream provider it relayed, or something else (e.g. what the
// proxy forwards to when that is not this service).
import type { HttpPost, PostOutcome } from '../proxy/http-post.ts';
import { SseParser } from '../protocol/sse.ts';
import { maskEchoed } from '../redact.ts';

export const PROBE_PROMPT = 'ping';
export const PROBE_MAX_TOKENS = 1;

export type Answerer = { kind: 'service' } | { kind: 'provider'; name: string } | { kind: 'other' } | { kind: 'none' };

export interface MessagesCall {
  url: string;
  route: 'proxy' | 'direct';
  model: string;
  outcome: PostOutcome;
  answeredBy: Answerer;
  /** `error.type` and `error.message` of an error body. */
  errorType?: string;
  errorMessage?: string;
  /** The text of a normal reply (max_tokens 1: a word or less). */
  reply?: string;
  /** True when the body is a messages-protocol reply (`"type":"message"`). */
  isMessage: boolean;
}

export interface ProbeRequest {
  baseUrl: string;
  route: 'proxy' | 'direct';
  /** The header the client sends its key in: bearer for a key of this service, x-api-key for a vendor key. */
  credential: { header: 'bearer' | 'x-api-key'; value: string };
  model: string;
  timeoutMs: number;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The gateway answers every API request with its own id in both `x-request-id` and `request-id`;
 * when it relays an upstream's answer it names the provider in `x-gateway-provider` instead.
 */
export function answeredBy(outcome: { kind: 'error' } | { kind: 'response'; headers: Record<string, string> }): Answerer {
  if (outcome.kind === 'error') return { kind: 'none' };
  const h = outcome.headers;
  if (h['x-gateway-provider']) return { kind: 'provider', name: h['x-gateway-provider'] };
  if (h['x-request-id'] && (!h['request-id'] || h['request-id'] === h['x-request-id'])) return { kind: 'service' };
  return { kind: 'other' };
}

export async function sendMessagesProbe(post: HttpPost, request: ProbeRequest): Promise<MessagesCall> {
  const url = `${request.baseUrl.replace(/\/+$/, '')}/v1/messages`;
  const auth: Record<string, string> = request.credential.header === 'bearer' ? { authorization: `Bearer ${request.credential.value}` } : { 'x-api-key': request.credential.value };
  const answer = await post({
    url,
    headers: { ...auth, 'anthropic-version': '2023-06-01', accept: 'application/json', 'user-agent': 'gwctl-diagnose' },
    body: JSON.stringify({ model: request.model, max_tokens: PROBE_MAX_TOKENS, messages: [{ role: 'user', content: PROBE_PROMPT }] }),
    timeoutMs: request.timeoutMs,
  });
  // An answer that echoes the key is kept with the key masked, so no report can print it.
  const outcome: PostOutcome = answer.kind === 'response' ? { ...answer, body: maskEchoed(answer.body, request.credential.value) } : answer;
  const call: MessagesCall = { url, route: request.route, model: request.model, outcome, answeredBy: answeredBy(outcome), isMessage: false };
  if (outcome.kind !== 'response') return call;
  if (outcome.eventStream) {
    // Some servers stream whatever was asked; a stream that opens with message_start is a reply.
    const parser = new SseParser();
    const events = [...parser.push(outcome.body), ...parser.end()].map((e) => parse(e.data) as { type?: string; delta?: { type?: string; text?: string } } | undefined);
    call.isMessage = events.some((e) => e?.type === 'message_start');
    call.reply = events.map((e) => (e?.type === 'content_block_delta' && e.delta?.type === 'text_delta' ? (e.delta.text ?? '') : '')).join('');
    return call;
  }
  const body = parse(outcome.body) as { type?: unknown; content?: unknown; error?: { type?: unknown; message?: unknown; code?: unknown } } | undefined;
  if (body?.type === 'message') {
    call.isMessage = true;
    const blocks = Array.isArray(body.content) ? (body.content as Array<{ type?: unknown; text?: unknown }>) : [];
    call.reply = blocks.map((b) => (b?.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('');
  }
  const error = body?.error;
  if (error && typeof error === 'object') {
    if (typeof error.type === 'string') call.errorType = error.type;
    else if (typeof error.code === 'string') call.errorType = error.code;
    if (typeof error.message === 'string') call.errorMessage = error.message;
  }
  return call;
}

/** The answer says the path carried /v1 twice (the gateway's 404 for …/v1/v1/messages). */
export function doubledV1(call: MessagesCall): boolean {
  return call.outcome.kind === 'response' && call.outcome.status === 404 && (/\/v1\/v1\//.test(new URL(call.url).pathname) || /\/v1 twice/.test(call.errorMessage ?? ''));
}
