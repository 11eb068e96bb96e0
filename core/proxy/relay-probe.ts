// `gwctl proxy upstream check <url>`: before another relay becomes the proxy's upstream
// upstream table, last row), probe it with short requests: /v1/messages exists (and the address is
// not a chat-completions /v1 one), SSE streaming works, the client's authentication header is
// accepted, no private signature is demanded, and statuses come back faithfully (a wrong key 401).
import type { HttpGet } from '../client/http-get.ts';
import { sameAddress } from '../launch/same-address.ts';
import { SseParser } from '../protocol/sse.ts';
import type { HttpPost, PostOutcome } from './http-post.ts';
import type { AnyCauseCode, ProxyCheckResult } from './proxy-causes.ts';

export interface RelayProbeInput {
  url: string;
  /** The credential the client would send, and how. */
  key?: string;
  keyVar?: string;
  header: 'bearer' | 'x-api-key';
  model?: string;
  proxyUrl: string;
  timeoutMs: number;
  post: HttpPost;
  get: HttpGet;
}

export interface RelayReport {
  schemaVersion: 1;
  url: string;
  ok: boolean;
  model: string;
  checks: ProxyCheckResult[];
}

const WRONG_KEY = 'sk-gwctl-probe-invalid-key-000000000000';
const SIGNATURE = /signature|signed request|x-sign|nonce|hmac|timestamp header/i;

function result(id: string, status: ProxyCheckResult['status'], cause: AnyCauseCode | null, observed: string, remedy: string | null = null, commands: string[] = []): ProxyCheckResult {
  return { id, status, cause: status === 'pass' ? 'OK' : cause, observed, remedy, commands };
}

function shown(o: PostOutcome): string {
  if (o.kind === 'error') return `${o.failure.code} (${o.failure.kind})`;
  const body = o.body.replace(/\s+/g, ' ').trim();
  return `${o.status}${o.eventStream ? ' text/event-stream' : ''}${body ? ` ${body.length > 120 ? `${body.slice(0, 120)}…` : body}` : ''}`;
}

function json(o: PostOutcome): Record<string, unknown> | undefined {
  if (o.kind !== 'response') return undefined;
  try {
    const value = JSON.parse(o.body) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The messages protocol answers in its own shapes: a message, or {"type":"error","error":{…}}. */
function messagesShaped(o: PostOutcome): boolean {
  const body = json(o);
  return body?.type === 'message' || (body?.type === 'error' && typeof body.error === 'object');
}

/** The first event of a stream's head (keep-alive comments aside) is message_start, by name or type. */
function opensWithMessageStart(head: string): boolean {
  const parser = new SseParser();
  const first = [...parser.push(head), ...parser.end()].find((e) => !e.comment);
  if (!first) return false;
  if (first.event === 'message_start') return true;
  try {
    return (JSON.parse(first.data) as { type?: unknown } | null)?.type === 'message_start';
  } catch {
    return false;
  }
}

export async function probeRelay(input: RelayProbeInput): Promise<RelayReport> {
  const root = input.url.replace(/\/+$/, '');
  const endpoint = `${root}/v1/messages`;
  const checks: ProxyCheckResult[] = [];
  const authHeaders = (key: string): Record<string, string> => (input.header === 'bearer' ? { authorization: `Bearer ${key}` } : { 'x-api-key': key });
  const base = { 'anthropic-version': '2023-06-01', accept: 'application/json' };

  // The address itself.
  if (sameAddress(root, input.proxyUrl)) {
    checks.push(result('relay.address', 'fail', 'RELAY_CHAT_COMPLETIONS', `${root} is the proxy itself: it would forward to itself`, 'Give the relay\'s own root address.'));
  } else if (/\/v1$/.test(new URL(root).pathname)) {
    checks.push(result('relay.address', 'fail', 'RELAY_CHAT_COMPLETIONS', `${root} ends with /v1: that is a chat-completions-compatible address; the proxy appends /v1/messages and would request ${root}/v1/messages`, 'Do not enter a chat-completions /v1 address; give the relay\'s messages root, without /v1.', [`gwctl proxy upstream check ${root.replace(/\/v1$/, '')}`]));
  } else {
    checks.push(result('relay.address', 'pass', null, `${root}: a root address without /v1; the proxy will request ${endpoint}`));
  }

  // A model to ask for: given, else the first the relay lists.
  let model = input.model;
  if (!model && input.key) {
    const listed = await input.get({ url: `${root}/v1/models`, headers: { ...authHeaders(input.key), accept: 'application/json' }, timeoutMs: input.timeoutMs });
    if (listed.kind === 'response' && listed.status === 200) {
      try {
        model = String((JSON.parse(listed.body) as { data?: Array<{ id?: unknown }> }).data?.[0]?.id ?? '') || undefined;
      } catch {
        model = undefined;
      }
    }
  }
  model ??= 'default';
  const body = (stream: boolean) => JSON.stringify({ model, max_tokens: 8, stream, messages: [{ role: 'user', content: 'Reply with exactly one word: ok' }] });
  const send = (headers: Record<string, string>, text: string) => input.post({ url: endpoint, headers: { ...base, ...headers }, body: text, timeoutMs: input.timeoutMs });

  const plain = await send(input.key ? authHeaders(input.key) : {}, body(false));
  if (plain.kind === 'error') {
    checks.push(result('relay.messages', 'fail', 'RELAY_UNREACHABLE', `POST ${endpoint} → ${shown(plain)}`, 'Check the address, and that this machine reaches it.'));
    return finish(input, model, checks);
  }
  const demandsSignature = (o: PostOutcome) => o.kind === 'response' && o.status >= 400 && SIGNATURE.test(o.body);
  if ((plain.status === 404 || plain.status === 405) && !messagesShaped(plain)) {
    checks.push(result('relay.messages', 'fail', /\/v1$/.test(root) ? 'RELAY_CHAT_COMPLETIONS' : 'RELAY_NO_MESSAGES', `POST ${endpoint} → ${shown(plain)}: no messages-protocol endpoint there`, 'Use a relay that serves /v1/messages (a chat-completions-only relay cannot be the proxy upstream).'));
  } else {
    checks.push(result('relay.messages', 'pass', null, `POST ${endpoint} → ${plain.status}${messagesShaped(plain) ? ' in the messages-protocol shape' : ''}: the endpoint exists`));
  }

  // The client's authentication header.
  if (!input.key) {
    checks.push(result('relay.auth-header', 'skip', null, `no credential to send (${input.keyVar ?? 'no key variable'} is not set); --key-env names the variable`));
  } else if (plain.status === 401 || plain.status === 403) {
    checks.push(result('relay.auth-header', 'fail', demandsSignature(plain) ? 'RELAY_SIGNATURE_REQUIRED' : 'RELAY_AUTH_REJECTED', `with ${input.header === 'bearer' ? 'Authorization: Bearer' : 'x-api-key'} from ${input.keyVar}: ${shown(plain)}`, 'The proxy forwards the client\'s header unchanged: the relay must accept it. Check the key, or use the header style the relay reads (--header).'));
  } else {
    checks.push(result('relay.auth-header', 'pass', null, `${input.header === 'bearer' ? 'Authorization: Bearer' : 'x-api-key'} from ${input.keyVar} accepted (${plain.status})`));
  }

  // Streaming.
  const streamed = await send(input.key ? authHeaders(input.key) : {}, body(true));
  if (streamed.kind === 'response' && streamed.eventStream && opensWithMessageStart(streamed.body)) {
    checks.push(result('relay.sse', 'pass', null, `stream:true → ${streamed.status} text/event-stream, first event message_start`));
  } else if (streamed.kind === 'response' && streamed.status >= 400) {
    checks.push(result('relay.sse', plain.kind === 'response' && plain.status === 200 ? 'fail' : 'skip', 'RELAY_NO_SSE', `stream:true → ${shown(streamed)}`, 'A streamed request must be answered with server-sent events.'));
  } else {
    checks.push(result('relay.sse', 'fail', 'RELAY_NO_SSE', `stream:true → ${shown(streamed)}: not an event stream starting with message_start`, 'The client streams (SSE); a relay that does not is not usable as the upstream.'));
  }

  // A wrong key must answer 401.
  const wrong = await send(authHeaders(WRONG_KEY), body(false));
  const wrongShown = `a wrong key → ${shown(wrong)}`;
  if (wrong.kind === 'response' && wrong.status === 401) checks.push(result('relay.wrong-key', 'pass', null, `${wrongShown.split(' {')[0]}: rejected as it must be`));
  else if (wrong.kind === 'response' && wrong.status === 403) checks.push(result('relay.wrong-key', 'warn', 'RELAY_UNFAITHFUL_STATUS', `${wrongShown}: 403 where 401 is expected`, 'Clients and gwctl diagnose read 401 as a wrong key; a 403 is reported as a permission problem.'));
  else {
    const why = wrong.kind === 'response' && wrong.status === 200 ? 'the relay answers without checking the client\'s key (it may use its own account)' : 'a wrong key must give 401, not 200 or 5xx';
    checks.push(result('relay.wrong-key', 'fail', 'RELAY_UNFAITHFUL_STATUS', `${wrongShown}: ${why}`, 'Do not use a relay that does not return 401 for a wrong key: failures would be misread.'));
  }

  // A malformed request must be a 4xx, not 200 or 5xx.
  const malformed = await send(input.key ? authHeaders(input.key) : {}, JSON.stringify({ model, max_tokens: 8, messages: 'not-a-list' }));
  if (malformed.kind === 'response' && malformed.status >= 400 && malformed.status < 500 && malformed.status !== 429) {
    const seen = [plain, streamed, wrong, malformed].filter((o): o is Extract<PostOutcome, { kind: 'response' }> => o.kind === 'response').map((o) => o.status);
    const html = [plain, streamed, wrong, malformed].some((o) => o.kind === 'response' && o.status >= 400 && /text\/html/i.test(o.headers['content-type'] ?? ''));
    checks.push(
      html
        ? result('relay.statuses', 'warn', 'RELAY_UNFAITHFUL_STATUS', `statuses seen: ${seen.join(', ')}; some error answers are HTML pages, not protocol errors`, 'Clients show such errors poorly; prefer a relay that answers errors in the protocol\'s JSON shape.')
        : result('relay.statuses', 'pass', null, `statuses seen: ${seen.join(', ')}; a malformed request → ${malformed.status}. 429 and 5xx cannot be provoked safely; watch that they pass through unchanged`),
    );
  } else {
    checks.push(result('relay.statuses', 'fail', 'RELAY_UNFAITHFUL_STATUS', `a malformed request → ${shown(malformed)}: expected a 4xx`, 'A relay that answers client errors with 200 or 5xx hides the cause (200/401/429/5xx must come back faithfully).'));
  }

  // Private signatures.
  const demanding = [plain, streamed, malformed].find(demandsSignature);
  if (demanding) checks.push(result('relay.signature', 'fail', 'RELAY_SIGNATURE_REQUIRED', `the relay asks for a signature: ${shown(demanding)}`, 'The proxy forwards the client\'s headers only; it cannot sign requests.'));
  else if (plain.status === 200) checks.push(result('relay.signature', 'pass', null, 'a plain request with only the client\'s header got 200: no private signature demanded'));
  else checks.push(result('relay.signature', 'skip', null, `not decided: the plain request answered ${plain.status}`));
  return finish(input, model, checks);
}

function finish(input: RelayProbeInput, model: string, checks: ProxyCheckResult[]): RelayReport {
  return { schemaVersion: 1, url: input.url.replace(/\/+$/, ''), ok: checks.every((c) => c.status !== 'fail'), model, checks };
}
