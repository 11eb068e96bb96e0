// Elapsed time of an operation: ticks while it runs, frozen once it ended.
/** @jsxRuntime automatic @jsxImportSource react */
import { Text } from 'ink';
import { useEffect, useState } from 'react';
import type { Theme } from '../theme.ts';

export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, ms) / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m${String(Math.floor(seconds % 60)).padStart(2, '0')}s`;
}

export function Elapsed({ startedAt, endedAt, theme }: { startedAt: number; endedAt: number | null; theme: Theme }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (endedAt !== null) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, [endedAt]);
  return <Text color={theme.color('muted')}>{formatElapsed((endedAt ?? now) - startedAt)}</Text>;
}
