// Starts a test's processes at once. When one fails to start (no Chromium, a port taken), the ones
// that did start are stopped before the failure is thrown: a failed `before` hook leaves nothing
// running that would keep the test file alive until its timeout.
type Stoppable = { cleanup?: () => unknown; close?: () => unknown };

async function stop(value: unknown): Promise<void> {
  const started = value as Stoppable | null | undefined;
  if (typeof started?.cleanup === 'function') await started.cleanup();
  else if (typeof started?.close === 'function') await started.close();
}

export async function startTogether<T extends readonly unknown[]>(...starts: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(starts);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (!failed) return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
  await Promise.allSettled(settled.map((s) => (s.status === 'fulfilled' ? stop(s.value) : undefined)));
  throw failed.reason;
}
