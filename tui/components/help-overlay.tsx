// The `?` help of a screen: what it does, its own keys, then the keys that work everywhere.
/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text } from 'ink';
import type { Theme } from '../theme.ts';
import type { KeyHint } from './key-hints.tsx';

export const GLOBAL_KEYS: readonly KeyHint[] = [
  ['↑↓ j k', 'move or scroll'],
  ['enter', 'select'],
  ['esc', 'back, or cancel what runs'],
  ['?', 'this help'],
  ['q', 'quit'],
  ['ctrl-c', 'quit at once'],
];

export interface HelpOverlayProps {
  title: string;
  about: string[];
  keys: readonly KeyHint[];
  theme: Theme;
}

function KeyTable({ keys, theme }: { keys: readonly KeyHint[]; theme: Theme }) {
  return (
    <Box flexDirection="column" flexShrink={0}>
      {keys.map(([key, what]) => (
        <Box key={key + what} flexShrink={0}>
          <Box width={14} flexShrink={0}>
            <Text bold color={theme.color('accent')}>
              {key}
            </Text>
          </Box>
          <Text>{what}</Text>
        </Box>
      ))}
    </Box>
  );
}

/** The keys that work everywhere, on as few rows as the width allows. */
function GlobalKeys({ theme }: { theme: Theme }) {
  return (
    <Text>
      {GLOBAL_KEYS.map(([key, what], i) => (
        <Text key={key}>
          {i > 0 ? ' · ' : ''}
          <Text bold color={theme.color('accent')}>
            {key}
          </Text>{' '}
          {what}
        </Text>
      ))}
    </Text>
  );
}

export function HelpOverlay({ title, about, keys, theme }: HelpOverlayProps) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color('accent')} paddingX={1} flexShrink={0}>
      <Text bold>Help · {title}</Text>
      <Text>{about.join(' ')}</Text>
      {keys.length > 0 && (
        <>
          <Text color={theme.color('muted')}>On this screen</Text>
          <KeyTable keys={keys} theme={theme} />
        </>
      )}
      <Text color={theme.color('muted')}>Everywhere</Text>
      <GlobalKeys theme={theme} />
      <Text color={theme.color('muted')}>Press any key to close this help.</Text>
    </Box>
  );
}
