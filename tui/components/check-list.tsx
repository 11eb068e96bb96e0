// Check results as they arrive: a spinner on the running check, then one block per result with its
// symbol, id and what was observed; warnings and failures add the cause code, the remedy and the
// commands to run by hand. Scrolls by whole checks (offset = first check shown).
/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text } from 'ink';
import type { Theme } from '../theme.ts';
import { Spinner } from './spinner.tsx';
import { StatusMark } from './status-mark.tsx';

export interface CheckRow {
  id: string;
  status: 'pass' | 'warn' | 'fail' | 'skip';
  cause: string | null;
  observed: string;
  remedy: string | null;
  commands: string[];
}

export interface CheckListProps {
  results: CheckRow[];
  /** The id of the check now running, if any. */
  running: string | null;
  theme: Theme;
  offset?: number;
  idWidth?: number;
}

function CheckBlock({ row, theme, idWidth }: { row: CheckRow; theme: Theme; idWidth: number }) {
  const quiet = row.status === 'pass' || row.status === 'skip';
  return (
    <Box flexDirection="column">
      <Box>
        <Box width={2} flexShrink={0}>
          <StatusMark status={row.status} theme={theme} />
        </Box>
        <Box width={idWidth} flexShrink={0}>
          <Text bold={!quiet}>{row.id}</Text>
        </Box>
        {quiet ? (
          <Text color={row.status === 'skip' ? theme.color('muted') : undefined}>{row.observed}</Text>
        ) : (
          <Text color={theme.color(row.status === 'fail' ? 'fail' : 'warn')} bold>
            {row.cause}
          </Text>
        )}
      </Box>
      {!quiet && (
        <Box flexDirection="column" marginLeft={4}>
          <Box>
            <Box width={10} flexShrink={0}>
              <Text color={theme.color('muted')}>observed</Text>
            </Box>
            <Text>{row.observed}</Text>
          </Box>
          {row.remedy && (
            <Box>
              <Box width={10} flexShrink={0}>
                <Text color={theme.color('muted')}>remedy</Text>
              </Box>
              <Text>{row.remedy}</Text>
            </Box>
          )}
          {row.commands.map((command, i) => (
            <Box key={i} marginLeft={2}>
              <Text color={theme.color('accent')}>$ {command}</Text>
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}

export function CheckList({ results, running, theme, offset = 0, idWidth = 22 }: CheckListProps) {
  const shown = results.slice(offset);
  return (
    <Box flexDirection="column">
      {offset > 0 && <Text color={theme.color('muted')}>↑ {offset} more above (k / ↑)</Text>}
      {shown.map((row) => (
        <CheckBlock key={row.id} row={row} theme={theme} idWidth={idWidth} />
      ))}
      {running !== null && (
        <Box>
          <Box width={2} flexShrink={0}>
            <Spinner theme={theme} />
          </Box>
          <Box width={idWidth} flexShrink={0}>
            <Text>{running}</Text>
          </Box>
          <Text color={theme.color('muted')}>running…</Text>
        </Box>
      )}
    </Box>
  );
}

/** The one-line verdict after a run, as the CLI prints it. */
export function CheckSummary({ results, theme }: { results: CheckRow[]; theme: Theme }) {
  const count = (s: CheckRow['status']) => results.filter((r) => r.status === s).length;
  const failed = count('fail');
  const warnings = count('warn');
  return (
    <Text>
      <Text color={theme.color(failed ? 'fail' : 'pass')} bold>
        {failed ? `${theme.symbols.fail} FAILED` : `${theme.symbols.pass} OK`}
      </Text>
      : {count('pass')} passed, {warnings} warning{warnings === 1 ? '' : 's'}, {failed} failed, {count('skip')} skipped
    </Text>
  );
}
