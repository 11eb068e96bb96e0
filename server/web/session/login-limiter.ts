// Slows password guessing without letting anyone lock a person out of their account:
// - an address that fails too often for one user name is locked for that name only (the pair);
// - an address that fails too often overall is locked (more room: many people may share one);
// - a user name that fails from many addresses is never locked: its attempts are paced instead,
//   one at a time with a delay that doubles with each failure (up to a bound), so a distributed
//   guesser gets a few attempts a minute while the real person still gets in after a short wait.
// All counts are over a sliding 15-minute window, kept in a failure log shared by every instance
// when Redis is configured.
import { setTimeout as sleep } from 'node:timers/promises';
import { MemoryFailureLog, type FailureLog } from './failure-log.ts';

const WINDOW_MS = 15 * 60_000;

export interface LoginLimiterOptions {
  maxPerPair?: number;
  maxPerAddress?: number;
  /** Failures of a user name (from any address) after which its attempts are paced. */
  paceAfter?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Attempts that may wait their turn for one user name; more are refused for now. */
  maxWaiting?: number;
  now?: () => number;
  wait?: (ms: number) => Promise<unknown>;
  log?: FailureLog;
}

export class LoginLimiter {
  private readonly turns = new Map<string, { tail: Promise<void>; waiting: number }>();
  private readonly options: Required<LoginLimiterOptions>;

  constructor(options: LoginLimiterOptions = {}) {
    this.options = { maxPerPair: 10, maxPerAddress: 50, paceAfter: 10, baseDelayMs: 250, maxDelayMs: 8_000, maxWaiting: 20, now: Date.now, wait: sleep, log: new MemoryFailureLog(), ...options };
  }

  /** Milliseconds until this address may try this name again (0 = now). */
  async retryAfterMs(ip: string, username: string): Promise<number> {
    const now = this.options.now();
    let wait = 0;
    for (const [subject, max] of [[pairOf(ip, username), this.options.maxPerPair], [`ip:${ip}`, this.options.maxPerAddress]] as const) {
      const recent = await this.recent(subject, now);
      if (recent.length >= max) wait = Math.max(wait, recent[recent.length - max]! + WINDOW_MS - now);
    }
    return wait;
  }

  /** How long an attempt for this name waits before its password is checked. */
  async delayMs(username: string): Promise<number> {
    const over = (await this.recent(userOf(username), this.options.now())).length - this.options.paceAfter;
    if (over < 0) return 0;
    return Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** Math.min(over, 30));
  }

  /**
   * Runs one attempt for the name in its turn, after its delay. Undefined when too many attempts
   * already wait for that name (answer "try again shortly"; nothing is locked).
   */
  async paced<T>(username: string, attempt: () => Promise<T>): Promise<T | undefined> {
    const name = userOf(username);
    if (!this.turns.has(name) && (await this.delayMs(username)) === 0) return attempt();
    const turn = this.turns.get(name) ?? { tail: Promise.resolve(), waiting: 0 };
    if (turn.waiting >= this.options.maxWaiting) return undefined;
    turn.waiting += 1;
    this.turns.set(name, turn);
    const previous = turn.tail;
    let release!: () => void;
    turn.tail = new Promise((resolve) => (release = resolve));
    try {
      await previous;
      await this.options.wait(await this.delayMs(username));
      return await attempt();
    } finally {
      turn.waiting -= 1;
      if (turn.waiting === 0) this.turns.delete(name);
      release();
    }
  }

  async fail(ip: string, username: string): Promise<void> {
    const now = this.options.now();
    for (const subject of [pairOf(ip, username), `ip:${ip}`, userOf(username)]) await this.options.log.add(subject, now, WINDOW_MS);
  }

  /**
   * A correct password clears what this address had against this name. The name's own count stays:
   * the real person logging in must not hand a distributed guesser a fresh set of fast attempts.
   */
  async succeed(ip: string, username: string): Promise<void> {
    await this.options.log.clear(pairOf(ip, username));
  }

  private recent(subject: string, now: number): Promise<number[]> {
    return this.options.log.recent(subject, now - WINDOW_MS + 1);
  }
}

const userOf = (username: string) => `user:${username.toLowerCase()}`;
const pairOf = (ip: string, username: string) => `pair:${ip}\u0000${username.toLowerCase()}`;
