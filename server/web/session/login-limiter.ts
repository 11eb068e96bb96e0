// Limits failed logins per user name and per client address (sliding 15-minute window), so
// password guessing is slow whichever of the two an attacker varies. An address gets more room
// than a name, since many people may share one address.

const WINDOW_MS = 15 * 60_000;

export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly maxPerUser = 10,
    private readonly maxPerAddress = 50,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds until another attempt is allowed, or 0. */
  retryAfterMs(ip: string, username: string): number {
    const now = this.now();
    let wait = 0;
    for (const [subject, max] of [[`ip:${ip}`, this.maxPerAddress], [`user:${username.toLowerCase()}`, this.maxPerUser]] as const) {
      const recent = this.recent(subject, now);
      if (recent.length >= max) wait = Math.max(wait, recent[recent.length - max]! + WINDOW_MS - now);
    }
    return wait;
  }

  fail(ip: string, username: string): void {
    const now = this.now();
    for (const subject of [`ip:${ip}`, `user:${username.toLowerCase()}`]) this.failures.set(subject, [...this.recent(subject, now), now]);
  }

  succeed(ip: string, username: string): void {
    this.failures.delete(`ip:${ip}`);
    this.failures.delete(`user:${username.toLowerCase()}`);
  }

  private recent(subject: string, now: number): number[] {
    const list = (this.failures.get(subject) ?? []).filter((t) => now - t < WINDOW_MS);
    if (list.length === 0) this.failures.delete(subject);
    return list;
  }
}
