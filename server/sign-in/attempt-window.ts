// How many times something was tried per key (an address, an account) within a sliding window:
// bounds how fast device codes can be asked for or guessed. The tries are kept where failed logins
// are (web/session/failure-log.ts): in this process, or in Redis when several instances share it, so
// the bound holds for the whole service rather than growing with the number of instances.
import { MemoryFailureLog, type FailureLog } from '../web/session/failure-log.ts';

export class AttemptWindow {
  constructor(
    readonly limit: number,
    readonly windowMs: number,
    /** Names this window's keys apart from other windows' in a shared log. */
    private readonly kind: string,
    private readonly log: FailureLog = new MemoryFailureLog(),
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds to wait before trying again, or 0 when another attempt is allowed now. */
  async retryAfterSeconds(key: string): Promise<number> {
    // Tries strictly within the window: one made exactly windowMs ago no longer counts.
    const recent = await this.log.recent(this.subject(key), this.now() - this.windowMs + 1);
    if (recent.length < this.limit) return 0;
    // The oldest try that still counts leaves the window first.
    const oldest = recent[recent.length - this.limit]!;
    return Math.max(1, Math.ceil((oldest + this.windowMs - this.now()) / 1000));
  }

  record(key: string): Promise<void> {
    return this.log.add(this.subject(key), this.now(), this.windowMs);
  }

  private subject(key: string): string {
    return `${this.kind}:${key}`;
  }
}
