// The line above a running or finished operation: spinner or verdict mark, what runs, elapsed time.
/** @jsxRuntime automatic @jsxImportSource react */
import { Text } from 'ink';
import { Elapsed } from '../components/elapsed.tsx';
import { Spinner } from '../components/spinner.tsx';
import { StatusMark } from '../components/status-mark.tsx';
import type { Theme } from '../theme.ts';

export function RunHeader({ what, phase, ok, startedAt, endedAt, theme }: { what: string; phase: 'idle' | 'running' | 'done' | 'failed'; ok?: boolean; startedAt: number; endedAt: number | null; theme: Theme }) {
  if (phase === 'idle') return <Text color={theme.color('muted')}>{what}</Text>;
  return (
    <Text>
      {phase === 'running' ? <Spinner theme={theme} /> : <StatusMark status={phase === 'failed' || ok === false ? 'fail' : 'pass'} theme={theme} />} <Text bold>{what}</Text>{' '}
      <Elapsed startedAt={startedAt} endedAt={endedAt} theme={theme} />
    </Text>
  );
}
