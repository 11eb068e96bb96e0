// The command that does the same as this screen, for a terminal without the TUI or a script.
/** @jsxRuntime automatic @jsxImportSource react */
import { Text } from 'ink';
import type { Theme } from '../theme.ts';

export function ByHand({ command, theme }: { command: string; theme: Theme }) {
  return (
    <Text>
      <Text color={theme.color('muted')}>By hand: </Text>
      <Text color={theme.color('accent')}>$ {command}</Text>
    </Text>
  );
}
