// Reading movement keys the same way on every screen: arrows and j/k move by one, page keys by a
// page, g/G (home/end) to the ends.
import type { Key } from 'ink';

/** Rows to move, or null when the key is not a movement key. */
export function movement(input: string, key: Key, page = 5): number | null {
  if (key.upArrow || input === 'k') return -1;
  if (key.downArrow || input === 'j') return 1;
  if (key.pageUp) return -page;
  if (key.pageDown || input === ' ') return page;
  if (key.home || input === 'g') return -Infinity;
  if (key.end || input === 'G') return Infinity;
  return null;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), Math.max(min, max));
}

/** Wrap-around selection in a list of `count` items. */
export function cycle(index: number, delta: number, count: number): number {
  if (count === 0) return 0;
  if (!Number.isFinite(delta)) return delta < 0 ? 0 : count - 1;
  return (((index + delta) % count) + count) % count;
}
