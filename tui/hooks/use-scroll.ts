// Scroll position of a ScrollBox, kept within the content once its height is known.
import { useCallback, useState } from 'react';
import { clamp } from './keys.ts';

export function useScroll(viewport: number) {
  const [offset, setOffset] = useState(0);
  const [contentHeight, setContentHeight] = useState(-1);
  const max = Math.max(0, contentHeight - Math.max(1, contentHeight > viewport ? viewport - 1 : viewport));
  const scrollBy = useCallback(
    (delta: number) => setOffset((o) => (Number.isFinite(delta) ? clamp(o + delta, 0, max) : delta < 0 ? 0 : max)),
    [max],
  );
  const reset = useCallback(() => setOffset(0), []);
  return { offset: Math.min(offset, max), contentHeight, onContentHeight: setContentHeight, scrollBy, reset, scrollable: contentHeight > viewport };
}
