// Polls a condition until it holds, within a bound. Tests wait on conditions, never on clocks.
import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitOptions {
  /** Upper bound; reaching it fails the test with `what` in the message. */
  timeoutMs?: number;
  intervalMs?: number;
  what?: string;
}

/**
 * Resolves with the first truthy value the condition returns. A condition that throws counts as
 * "not yet"; its last error is reported if the bound is reached.
 */
export async function waitFor<T>(condition: () => T | Promise<T>, options: WaitOptions = {}): Promise<NonNullable<T>> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const intervalMs = options.intervalMs ?? 20;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await condition();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const cause = lastError ? ` (last error: ${(lastError as Error)?.message ?? lastError})` : '';
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${options.what ?? 'a condition'}${cause}`);
    }
    await sleep(intervalMs);
  }
}

/** Awaits a promise, failing with `what` in the message if it has not settled within the bound. */
export async function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
