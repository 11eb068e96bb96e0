// Which upstream answers are worth another try, and how long to wait before it. Only answers
// received before any byte went to the client are retried: once a stream has started, its
// failure reaches the client as an error event instead.

/** 408 and 429 (the provider is busy), and every 5xx (including 529 overloaded). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Exponential from 100 ms, capped at 1 s, with jitter so parallel retries do not align. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(1000, 100 * 2 ** (attempt - 1));
  return Math.round(base / 2 + (random() * base) / 2);
}

/**
 * Whether to ask the same provider again after a retryable status: not when it said to wait
 * longer than a backoff would (Retry-After over 1 s); the next provider is tried instead.
 */
export function retrySameProvider(status: number, headers: Record<string, string>): boolean {
  if (!isRetryableStatus(status)) return false;
  const retryAfter = headers['retry-after'];
  if (retryAfter === undefined) return true;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds)) return seconds <= 1;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) || date - Date.now() <= 1000;
}
