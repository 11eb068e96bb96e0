// A fixed-height viewport over taller content, scrolled by whole rows: the content is shifted up by
// `offset` rows and clipped. It reports the content's height so the screen can bound its scrolling,
// and shows where the view is when the content does not fit.
/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text, measureElement, type DOMElement } from 'ink';
import { useEffect, useRef, type ReactNode } from 'react';
import type { Theme } from '../theme.ts';

export interface ScrollBoxProps {
  height: number;
  offset: number;
  /** Height of the content as last laid out; -1 before the first layout. */
  contentHeight: number;
  onContentHeight: (rows: number) => void;
  /** The keys that scroll it, for the position line. */
  keys?: string;
  theme: Theme;
  children: ReactNode;
}

export function ScrollBox({ height, offset, contentHeight, onContentHeight, keys = 'j/k', theme, children }: ScrollBoxProps) {
  const ref = useRef<DOMElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    const rows = measureElement(ref.current).height;
    if (rows !== contentHeight) onContentHeight(rows);
  });
  const overflowing = contentHeight > height;
  const viewport = Math.max(1, overflowing ? height - 1 : height);
  const top = Math.min(Math.max(0, offset), Math.max(0, contentHeight - viewport));
  return (
    <Box flexDirection="column" height={height} flexShrink={0}>
      <Box height={viewport} overflow="hidden" flexDirection="column" flexShrink={0}>
        <Box ref={ref} marginTop={-top} flexDirection="column" flexShrink={0}>
          {children}
        </Box>
      </Box>
      {overflowing && (
        <Text color={theme.color('muted')}>
          {top > 0 ? '↑ ' : '  '}rows {top + 1}–{Math.min(contentHeight, top + viewport)} of {contentHeight}
          {top + viewport < contentHeight ? ' ↓' : ''} · {keys} scroll
        </Text>
      )}
    </Box>
  );
}
