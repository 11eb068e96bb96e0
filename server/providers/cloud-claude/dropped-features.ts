// Betas and body fields a cloud does not accept, dropped from requests on their way to it: counted
// by provider, kind and name for the metrics, and told once per provider and name to one listener
// (the gateway's log, which would otherwise get a line per request), so an operator sees which client
// features a cloud did not get. Never carries values, only names.
export interface DroppedFeature {
  provider: string;
  kind: 'beta' | 'field';
  name: string;
}

type Listener = (dropped: DroppedFeature) => void;

const counts = new Map<string, { feature: DroppedFeature; count: number }>();
const told = new Set<string>();
let listener: Listener | undefined;

export function noteDroppedFeature(feature: DroppedFeature): void {
  const key = `${feature.provider}\0${feature.kind}\0${feature.name}`;
  const entry = counts.get(key);
  if (entry) entry.count += 1;
  else counts.set(key, { feature, count: 1 });
  if (told.has(key)) return;
  told.add(key);
  listener?.(feature);
}

/** Who hears of each drop (one listener: the running gateway's logger). */
export function onDroppedFeature(next: Listener | undefined): void {
  listener = next;
}

/** Drops counted since the last call, then forgotten (the metrics add them to a counter). */
export function drainDroppedFeatures(): Array<{ feature: DroppedFeature; count: number }> {
  const drained = [...counts.values()];
  counts.clear();
  return drained;
}
