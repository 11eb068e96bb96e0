// Per-key requests-per-minute limit over fixed one-minute windows, kept in memory. A key may carry
// its own limit, passed with each take().

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the current window ends. */
  resetMs: number;
}

/** A per-key limit: this in-memory one, or the one shared through Redis by several instances. */
export interface RateLimit {
  readonly enabled: boolean;
  /** `limit` overrides the default for this subject (a key with its own rate limit). */
  take(subject: string, limit?: number): RateDecision | Promise<RateDecision>;
}

interface Window {
  startedAt: number;
  count: number;
}

const WINDOW_MS = 60_000;

export class RateLimiter implements RateLimit {
  private readonly windows = new Map<string, Window>();
  private sweptAt = 0;

  constructor(
    readonly requestsPerMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.requestsPerMinute > 0;
  }

  take(subject: string, limit: number = this.requestsPerMinute): RateDecision {
    const now = this.now();
    this.sweep(now);
    let window = this.windows.get(subject);
    if (!window || now - window.startedAt >= WINDOW_MS) {
      window = { startedAt: now, count: 0 };
      this.windows.set(subject, window);
    }
    const resetMs = window.startedAt + WINDOW_MS - now;
    if (window.count >= limit) {
      return { allowed: false, limit, remaining: 0, resetMs };
    }
    window.count += 1;
    return { allowed: true, limit, remaining: limit - window.count, resetMs };
  }

  private sweep(now: number): void {
    if (now - this.sweptAt < WINDOW_MS) return;
    this.sweptAt = now;
    for (const [subject, window] of this.windows) if (now - window.startedAt >= WINDOW_MS) this.windows.delete(subject);
  }
}
