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

export class MemoryFailureLog implements FailureLog {
  private readonly failures = new Map<string, number[]>();

  async add(subject: string, at: number, windowMs: number): Promise<void> {
    const kept = (await this.recent(subject, at - windowMs)).slice(-(MAX_KEPT - 1));
    this.failures.set(subject, [...kept, at]);
  }

  async recent(subject: string, since: number): Promise<number[]> {
    const list = (this.failures.get(subject) ?? []).filter((t) => t >= since);
    if (list.length === 0) this.failures.delete(subject);
    else this.failures.set(subject, list);
    return list;
  }

  async clear(subject: string): Promise<void> {
    this.failures.delete(subject);
  }
}
