import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomicAsync } from './atomic-write.ts';

/**
 * Writes files off the request path. While a write to a path is in flight, newer contents for the
 * same path replace each other and only the latest is written next (at most one write per
 * minIntervalMs), so a busy session costs a few writes a second instead of one per response, and
 * the file always ends at the newest state.
 */
export class CoalescingWriter {
  private readonly pending = new Map<string, string>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly madeDirs = new Set<string>();

  constructor(
    private readonly onError: (path: string, error: unknown) => void,
    /** Spacing between two writes of the same file; the latest content is always written in the end. */
    private readonly minIntervalMs = 0,
  ) {}

  write(path: string, content: string): void {
    this.pending.set(path, content);
    if (!this.inFlight.has(path)) {
      const run = this.drain(path).finally(() => this.inFlight.delete(path));
      this.inFlight.set(path, run);
    }
  }

  private async drain(path: string): Promise<void> {
    for (let content = this.pending.get(path); content !== undefined; content = this.pending.get(path)) {
      this.pending.delete(path);
      const started = Date.now();
      try {
        const dir = dirname(path);
        if (!this.madeDirs.has(dir)) {
          await mkdir(dir, { recursive: true });
          this.madeDirs.add(dir);
        }
        await writeFileAtomicAsync(path, content);
      } catch (error) {
        this.onError(path, error);
      }
      const wait = this.minIntervalMs - (Date.now() - started);
      if (wait > 0 && this.pending.has(path)) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** Resolves when everything queued so far is on disk (used on shutdown). */
  async flush(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight.values()]);
  }
}
