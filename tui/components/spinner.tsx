// A spinner that turns while something runs (its own frame timer; nothing else).
/** @jsxRuntime automatic @jsxImportSource react */
import { Text } from 'ink';
import { useEffect, useState } from 'react';
import type { Theme } from '../theme.ts';

export function Spinner({ theme }: { theme: Theme }) {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setFrame((f) => (f + 1) % theme.spinner.length), 80);
    return () => clearInterval(timer);
  }, [theme]);
  return <Text color={theme.color('accent')}>{theme.spinner[frame]}</Text>;
}
