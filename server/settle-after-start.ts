// One garbage collection once the gateway has started and sat idle: what the start allocated
// (module loading, migrations, the first admin, route registration) is garbage by then, and V8 keeps
// the young generation at the size the start grew it to (16 MiB semi-spaces, ~15 MiB of resident
// memory) until a collection finds the process allocating little. V8's memory reducer does that
// collection by itself, but only once its allocation rate, averaged over the start, looks low: 8 s
// after the start on a quiet machine, after more than a minute when the start competed for the CPU.
// This does it once, SETTLE_MS after the listeners opened, if no response is open at that moment;
// V8 then shrinks the young generation because the allocation rate of the last seconds is low (it
// does not when requests are coming in, and the young generation grows again with traffic). It
// costs one collection of the idle heap (a few ms to a few tens of ms), once; nothing per request.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Lifecycle } from './lifecycle.ts';

/** V8 judges the allocation rate over the last 5 s: the collection comes after that much quiet. */
export const SETTLE_MS = 10_000;

/** Schedules the collection; the returned function cancels it (at stop). */
export function settleAfterStart(lifecycle: Lifecycle, delayMs = SETTLE_MS): () => void {
  const timer = setTimeout(() => {
    if (lifecycle.openResponses > 0 || lifecycle.draining) return;
    // The collector is reachable from script only as `gc`, which this flag installs in contexts
    // made after it is set (the gateway's own global stays without it).
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
  }, delayMs);
  timer.unref();
  return () => clearTimeout(timer);
}
