// Where failed logins are remembered: in this process, or in Redis when several instances share
// the throttling. Timestamps per subject (a name, an address, or the pair), oldest first.

export interface FailureLog {
  add(subject: string, at: number, windowMs: number): Promise<void>;
  /** Timestamps at or after `since`, oldest first. */
  recent(subject: string, since: number): Promise<number[]>;
  clear(subject: string): Promise<void>;
}

/** At most this many failures are kept per subject: enough for every limit, bounded under attack. */
export const MAX_KEPT = 200;

/** Subjects kept before those whose window has passed are dropped (addresses that never came back). */
const PRUNE_ABOVE = 10_000;

export class MemoryFailureLog implements FailureLog {
  private readonly failures = new Map<string, number[]>();
  /** When each subject's last entry leaves its window. */
  private readonly expires = new Map<string, number>();

  async add(subject: string, at: number, windowMs: number): Promise<void> {
    const kept = (await this.recent(subject, at - windowMs)).slice(-(MAX_KEPT - 1));
    this.failures.set(subject, [...kept, at]);
    this.expires.set(subject, at + windowMs);
    if (this.failures.size > PRUNE_ABOVE) this.prune(at);
  }

  private prune(now: number): void {
    for (const [subject, expires] of this.expires) {
      if (expires > now) continue;
      this.expires.delete(subject);
      this.failures.delete(subject);
    }
  }

  async recent(subject: string, since: number): Promise<number[]> {
    const list = (this.failures.get(subject) ?? []).filter((t) => t >= since);
    if (list.length === 0) {
      this.failures.delete(subject);
      this.expires.delete(subject);
    } else this.failures.set(subject, list);
    return list;
  }

  async clear(subject: string): Promise<void> {
    this.failures.delete(subject);
    this.expires.delete(subject);
  }
}
