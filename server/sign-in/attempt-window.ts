// How many times something was tried per key (an address, an account) within a sliding window, in
// this instance's memory: bounds how fast device codes can be asked for or guessed. Several
// instances each keep their own window, so the bound grows with their number.

export class AttemptWindow {
  private readonly hits = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds to wait before trying again, or 0 when another attempt is allowed now. */
  retryAfterSeconds(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.limit) return 0;
    return Math.max(1, Math.ceil((recent[0]! + this.windowMs - this.now()) / 1000));
  }

  record(key: string): void {
    const recent = this.recent(key);
    recent.push(this.now());
    this.hits.set(key, recent);
    // Keys that went quiet are dropped now and then, so the map stays small.
    if (this.hits.size > 10_000) for (const [k] of this.hits) if (this.recent(k).length === 0) this.hits.delete(k);
  }

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    return (this.hits.get(key) ?? []).filter((at) => at > since);
  }
}
