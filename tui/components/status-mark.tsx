// The symbol and word of a check status, coloured when colour is on.
/** @jsxRuntime automatic @jsxImportSource react */
import { Text } from 'ink';
import type { Theme, Tone } from '../theme.ts';

export type MarkStatus = 'pass' | 'warn' | 'fail' | 'skip' | 'pending';

const WORD: Record<MarkStatus, string> = { pass: 'PASS', warn: 'WARN', fail: 'FAIL', skip: 'SKIP', pending: 'WAIT' };

export function StatusMark({ status, theme, word = false }: { status: MarkStatus; theme: Theme; word?: boolean }) {
  const tone: Tone = status === 'pending' ? 'muted' : status;
  return (
    <Text color={theme.color(tone)} bold={status === 'fail'}>
      {theme.symbols[status]}
      {word ? ` ${WORD[status]}` : ''}
    </Text>
  );
}
