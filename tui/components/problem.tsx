// An operation that could not run (a settings problem, an internal error): what, and what to do.
/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text } from 'ink';
import type { Theme } from '../theme.ts';

export function Problem({ message, remedy, commands = [], theme }: { message: string; remedy?: string | null; commands?: string[]; theme: Theme }) {
  return (
    <Box flexDirection="column">
      <Text color={theme.color('fail')} bold>
        {theme.symbols.fail} {message}
      </Text>
      {remedy && (
        <Box>
          <Box width={4} flexShrink={0}>
            <Text>  →</Text>
          </Box>
          <Text>{remedy}</Text>
        </Box>
      )}
      {commands.map((c, i) => (
        <Text key={i} color={theme.color('accent')}>
          {'    $ '}
          {c}
        </Text>
      ))}
    </Box>
  );
}
