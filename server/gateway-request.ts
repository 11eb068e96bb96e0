// Per-request gateway state kept on the fastify request.
import type { ApiSurface } from '../core/protocol/error-bodies.ts';
import type { AuthContext } from './auth/key-authenticator.ts';
import type { UsageClasses } from './protocols/canonical/usage.ts';
import type { RequestAbort } from './relay/request-abort.ts';
import type { UsageOutcome } from './usage/usage-outcome.ts';

export interface GatewayRequestState {
  surface: ApiSurface;
  auth?: AuthContext;
  /** The public model name once resolved; usage rows use it. */
  model?: string;
  /** The name the client asked for, when an alias answered it with `model`. */
  requestedModel?: string;
  inputTokens: number;
  outputTokens: number;
  /** Every token class apart, when the upstream reported its usage (for cost). */
  usageClasses?: UsageClasses;
  /** The provider that answered (for its prices). */
  provider?: string;
  /** Set when the outcome differs from the HTTP status sent (a stream that failed after 200). */
  outcomeStatus?: number;
  /** How the exchange ended when it did not complete normally. */
  outcome?: UsageOutcome;
  /** A provider was called for this request: its usage counts however the request ends. */
  reachedProvider?: boolean;
  /** Characters of generated text relayed so far (for an estimate when the upstream sent no usage). */
  generatedChars?: number;
  usageRecorded: boolean;
  /**
   * Counts the request's usage (the journal first, so a crash cannot lose it), then runs `end`, which
   * writes the answer's last bytes, once the journal line is written: called where a JSON answer or a
   * stream ends. Set at the start of every API request.
   */
  beforeAnswerEnds?: (end: () => void) => void;
  /** Aborts the upstream call when the client's response closes before it finished. */
  abort?: RequestAbort;
  /** Counted in the metrics already. */
  observed?: boolean;
  /** What the support desk's request log keeps of the answer (see usage/request-log-support.ts). */
  support?: RequestSupportFacts;
  /** A request without a key owner, written to the request log already. */
  unownedLogged?: boolean;
}

/** Facts of one request beyond usage, for the request log; set only where they arise. */
export interface RequestSupportFacts {
  errorCode?: string;
  errorMessage?: string;
  provider?: string;
  upstreamStatus?: number;
  upstreamRequestId?: string;
  attempts?: number;
  /** A refused key value no key matched: its masked hint and fingerprint (never the value). */
  keyHint?: string;
  keyFingerprint?: string;
  /** The owner and key a refusal was about when no AuthContext was made (a disabled owner). */
  userId?: string;
  keyId?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    gateway: GatewayRequestState;
    rawBody?: Buffer;
  }
}

/** Messages-protocol routes, and the model list when a messages client asks, answer in its envelope; the Gemini API's paths in Gemini's. */
export function surfaceOf(url: string, anthropicVersion?: unknown): ApiSurface {
  const path = decodedPath(url.split('?', 1)[0]!);
  if (/^(\/v1)*\/messages(\/|$)/.test(path)) return 'messages';
  if (/^(\/v1(beta)?)*\/v1beta(\/|$)/.test(path)) return 'gemini';
  if (anthropicVersion !== undefined && /^\/v1\/models(\/|$)/.test(path)) return 'messages';
  return 'openai';
}

/** The router matches percent-decoded paths (`/v1/%6Dessages` is `/v1/messages`), so the surface must too. */
function decodedPath(path: string): string {
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
