// One short, real request in the protocol a non-messages client speaks, as it would send it: chat
// completions (OpenCode, Qwen Code and other chat clients), Responses (Codex) or the Gemini API
// (Gemini CLI), straight to the service with the client's key, a one-word prompt and the smallest
// output limit the protocol takes. It may cost a few tokens; `--no-request` leaves it out.
import type { HttpPost, PostOutcome } from '../proxy/http-post.ts';
import type { ClientProtocol } from '../config/profiles/profile-defaults.ts';
import { maskEchoed } from '../redact.ts';
import { answeredBy, PROBE_PROMPT, type Answerer } from './messages-probe.ts';

export type ProbedProtocol = Exclude<ClientProtocol, 'messages'>;

export interface ProtocolCall {
  protocol: ProbedProtocol;
  url: string;
  model: string;
  outcome: PostOutcome;
  answeredBy: Answerer;
  /** `error.code` (chat, Responses) or `error.status` (Gemini) of an error body. */
  errorCode?: string;
  errorMessage?: string;
  /** The answer has the protocol's shape: chat.completion, a Responses `response`, Gemini candidates. */
  isAnswer: boolean;
}

interface Shaped {
  path: (model: string) => string;
  headers: (key: string) => Record<string, string>;
  body: (model: string) => unknown;
  isAnswer: (body: Record<string, unknown>) => boolean;
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

const PROTOCOLS: Record<ProbedProtocol, Shaped> = {
  chat: {
    path: () => '/v1/chat/completions',
    headers: bearer,
    body: (model) => ({ model, max_tokens: 1, messages: [{ role: 'user', content: PROBE_PROMPT }] }),
    isAnswer: (b) => b.object === 'chat.completion' && Array.isArray(b.choices),
  },
  responses: {
    path: () => '/v1/responses',
    headers: bearer,
    // 16 is the smallest max_output_tokens the Responses API accepts.
    body: (model) => ({ model, input: PROBE_PROMPT, max_output_tokens: 16 }),
    isAnswer: (b) => b.object === 'response' && Array.isArray(b.output),
  },
  gemini: {
    path: (model) => `/v1beta/models/${encodeURIComponent(model)}:generateContent`,
    headers: (key) => ({ 'x-goog-api-key': key }),
    body: () => ({ contents: [{ role: 'user', parts: [{ text: PROBE_PROMPT }] }], generationConfig: { maxOutputTokens: 1 } }),
    isAnswer: (b) => Array.isArray(b.candidates),
  },
};

export const PROTOCOL_NAMES: Record<ProbedProtocol, string> = { chat: 'chat completions', responses: 'Responses', gemini: 'Gemini API' };

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function sendProtocolProbe(post: HttpPost, request: { protocol: ProbedProtocol; root: string; key: string; model: string; timeoutMs: number }): Promise<ProtocolCall> {
  const shape = PROTOCOLS[request.protocol];
  const url = `${request.root.replace(/\/+$/, '')}${shape.path(request.model)}`;
  const answer = await post({
    url,
    headers: { ...shape.headers(request.key), accept: 'application/json', 'user-agent': 'gwctl-diagnose' },
    body: JSON.stringify(shape.body(request.model)),
    timeoutMs: request.timeoutMs,
  });
  const outcome: PostOutcome = answer.kind === 'response' ? { ...answer, body: maskEchoed(answer.body, request.key) } : answer;
  const call: ProtocolCall = { protocol: request.protocol, url, model: request.model, outcome, answeredBy: answeredBy(outcome), isAnswer: false };
  if (outcome.kind !== 'response') return call;
  const body = parse(outcome.body);
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    call.isAnswer = outcome.status < 400 && shape.isAnswer(record);
    const error = record.error as { code?: unknown; status?: unknown; type?: unknown; message?: unknown } | undefined;
    if (error && typeof error === 'object') {
      const code = typeof error.code === 'string' ? error.code : typeof error.status === 'string' ? error.status : typeof error.type === 'string' ? error.type : undefined;
      if (code) call.errorCode = code;
      if (typeof error.message === 'string') call.errorMessage = error.message;
    }
  }
  return call;
}
