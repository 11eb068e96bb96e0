// The order in which the providers of one model are tried: by priority (lower first), and within
// a priority by a weighted random draw, so traffic splits by weight and each request still has
// the whole list to fall back on.

export interface Weighted {
  priority: number;
  weight: number;
}

/**
 * Weighted random order without replacement (each item keyed by u^(1/weight), largest first):
 * an item's chance to come first is its weight over the sum. Weight 0 goes last in its priority.
 */
export function orderCandidates<T extends Weighted>(items: readonly T[], random: () => number = Math.random): T[] {
  const keyed = items.map((item, position) => ({
    item,
    position,
    key: item.weight > 0 ? Math.pow(Math.max(random(), Number.MIN_VALUE), 1 / item.weight) : -1,
  }));
  keyed.sort((a, b) => a.item.priority - b.item.priority || b.key - a.key || a.position - b.position);
  return keyed.map((k) => k.item);
}
