// A 429 told apart: a used-up budget (quota_exceeded, or x-should-retry: false) is not a rate limit,
// and retrying sooner does not help, so its remedy says when it resets instead of "wait and retry".
// Shared by the model-list request (verify, diagnose) and the short real messages request.
import { causeRemedy } from '../causes/cause-remedy.ts';
import { formatDuration } from '../format-duration.ts';
import { formatTime } from '../format-time.ts';
import { outcome } from './check-result.ts';
import type { CheckOutcome } from './check.ts';
import type { TemplateVars } from './fill-template.ts';
import type { Answerer } from './messages-probe.ts';

export interface TooManyRequests {
  /** The request and its answer, as the check reports it. */
  head: string;
  headers: Record<string, string>;
  errorCode?: string;
  errorMessage?: string;
  who: Answerer;
  vars: TemplateVars;
}

// The gateway's quota_exceeded, and the name the OpenAI-style upstreams give a used-up account.
const QUOTA_CODES = new Set(['quota_exceeded', 'insufficient_quota']);

export function isQuotaAnswer(input: Pick<TooManyRequests, 'headers' | 'errorCode' | 'errorMessage'>): boolean {
  if (input.errorCode && QUOTA_CODES.has(input.errorCode)) return true;
  if (input.headers['x-should-retry'] === 'false') return true;
  return /\bquota, not a rate limit\b/i.test(input.errorMessage ?? '');
}

function retryAfterSeconds(headers: Record<string, string>): number | undefined {
  const value = headers['retry-after'];
  return value !== undefined && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
}

/** The reset time the gateway's quota message names ("It resets at 2026-11-28T00:00:00.000Z"). */
function resetAt(message: string | undefined): string | undefined {
  return /resets at (\d{4}-\d{2}-\d{2}T[\d:.]+Z)/.exec(message ?? '')?.[1];
}

export function tooManyRequestsOutcome(input: TooManyRequests): CheckOutcome {
  const seconds = retryAfterSeconds(input.headers);
  const shouldRetry = input.headers['x-should-retry'];
  const seen = [seconds !== undefined ? `Retry-After: ${seconds} s` : '', shouldRetry ? `x-should-retry: ${shouldRetry}` : ''].filter(Boolean).join(', ');
  const observed = `${input.head}${seen ? ` (${seen})` : ''}`;
  if (isQuotaAnswer(input)) {
    const at = resetAt(input.errorMessage);
    const when = seconds !== undefined ? `in ${formatDuration(seconds)}${at ? ` (${formatTime(at)})` : ''}` : at ? `at ${formatTime(at)}` : 'when its period (a UTC day or month) ends';
    const whose = input.who.kind === 'provider' ? ` The answer comes from the upstream provider "${input.who.name}": its account's quota is the service operator's to raise.` : '';
    const fix = causeRemedy('QUOTA_EXCEEDED', input.vars);
    return outcome.fail('QUOTA_EXCEEDED', observed, `The budget is used up and resets ${when}. ${fix.remedy}${whose}`, fix.commands);
  }
  const rate = causeRemedy('RATE_LIMITED', input.vars);
  const wait = seconds !== undefined ? `Wait ${formatDuration(seconds)}` : 'Wait a little';
  if (input.who.kind === 'provider') {
    return outcome.fail('RATE_LIMITED', observed, `${wait} and retry; it is the rate limit of the upstream account behind "${input.who.name}": ask the service operator about it.`, rate.commands);
  }
  if (input.who.kind === 'service') {
    return outcome.fail('RATE_LIMITED', observed, `${wait} and retry; it is this service's rate limit for your key: spread requests out, or ask the service operator for a higher limit.`, rate.commands);
  }
  return outcome.fail('RATE_LIMITED', observed, rate.remedy, rate.commands);
}
