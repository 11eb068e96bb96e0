// A garbage collection once the gateway has started and sat idle: what the start allocated
// (module loading, migrations, the first admin, route registration) is garbage by then, and V8 keeps
// the young generation at the size the start grew it to (16 MiB semi-spaces, ~15 MiB of resident
// memory) until a collection finds the process allocating little. V8's memory reducer does that
// collection by itself, but only once its allocation rate, averaged over the start, looks low: 8 s
// after the start on a quiet machine, after more than a minute when the start competed for the CPU.
// This does it SETTLE_MS after the listeners opened, if no response is open at that moment: two
// collections, one right after the other. V8 shrinks the young generation at a collection that
// finds the allocation rate of the last seconds low, and the first collection after a quiet spell
// often still judges by the start: measured in the benchmark's setup, one collection left the
// young generation at 16 MiB in most starts, and the second, right after it, shrank it to 1-2 MiB
// in every start (BENCHMARKS.md). With requests coming in it stays large, and it grows again with
// traffic. It costs two collections of the idle heap (a few ms to a few tens of ms each), once;
// nothing per request.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Lifecycle } from './lifecycle.ts';

/** V8 judges the allocation rate over the last 5 s: the collection comes after that much quiet. */
export const SETTLE_MS = 10_000;

/** Schedules the collections; the returned function cancels them (at stop). */
export function settleAfterStart(lifecycle: Lifecycle, delayMs = SETTLE_MS): () => void {
  const timer = setTimeout(() => {
    if (lifecycle.openResponses > 0 || lifecycle.draining) return;
    // The collector is reachable from script only as `gc`, which this flag installs in contexts
    // made after it is set (the gateway's own global stays without it).
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    collect();
    collect();
  }, delayMs);
  timer.unref();
  return () => clearTimeout(timer);
}
