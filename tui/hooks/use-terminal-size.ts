// The terminal's size, following resizes; 80x24 when the output is not a terminal.
import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

export interface TerminalSize {
  columns: number;
  rows: number;
}

export function useTerminalSize(fixed?: Partial<TerminalSize>): TerminalSize {
  const { stdout } = useStdout();
  const read = (): TerminalSize => ({ columns: fixed?.columns ?? (stdout.columns || 80), rows: fixed?.rows ?? (stdout.rows || 24) });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const update = () => setSize(read());
    stdout.on('resize', update);
    return () => {
      stdout.off('resize', update);
    };
  }, [stdout, fixed?.columns, fixed?.rows]);
  return size;
}
