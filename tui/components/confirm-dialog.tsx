// A confirmation: what will change, listed first, then the question. The screen handles the keys
// (y / enter confirm, n / esc cancel) and any toggles it lists.
/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text } from 'ink';
import type { Theme } from '../theme.ts';

export interface ConfirmDialogProps {
  title: string;
  /** What will change, one line each. */
  changes: string[];
  /** Notes or warnings shown under the changes. */
  notes?: string[];
  /** Extra toggles, e.g. [['f', 'force: off']]. */
  toggles?: ReadonlyArray<readonly [string, string]>;
  confirmLabel?: string;
  theme: Theme;
}

export function ConfirmDialog({ title, changes, notes = [], toggles = [], confirmLabel = 'go ahead', theme }: ConfirmDialogProps) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color('warn')} paddingX={1}>
      <Text bold color={theme.color('warn')}>
        {theme.symbols.warn} {title}
      </Text>
      <Text color={theme.color('muted')}>What will change:</Text>
      {changes.length === 0 ? (
        <Text>  (nothing)</Text>
      ) : (
        changes.map((c, i) => (
          <Box key={i}>
            <Box width={4} flexShrink={0}>
              <Text>  {theme.symbols.bullet}</Text>
            </Box>
            <Text>{c}</Text>
          </Box>
        ))
      )}
      {notes.map((n, i) => (
        <Text key={`n${i}`} color={theme.color('warn')}>
          {n}
        </Text>
      ))}
      {toggles.length > 0 && (
        <Text>
          {toggles.map(([key, label]) => (
            <Text key={key}>
              <Text bold color={theme.color('accent')}>
                {key}
              </Text>{' '}
              {label}
              {'   '}
            </Text>
          ))}
        </Text>
      )}
      <Text>
        <Text bold color={theme.color('accent')}>
          y
        </Text>
        /enter {confirmLabel}{'   '}
        <Text bold color={theme.color('accent')}>
          n
        </Text>
        /esc cancel
      </Text>
    </Box>
  );
}
