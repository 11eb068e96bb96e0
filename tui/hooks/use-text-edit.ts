// Editing one line of text with the keyboard: printable input is inserted at the cursor,
// left/right/home/end move, backspace/delete remove, ctrl-u clears to the start, enter submits and
// esc cancels. The text lives in a ref as well as in state, so keys that arrive in one burst (a
// paste, or tmux sending a string) each see the text the previous one left.
import type { Key } from 'ink';
import { useCallback, useRef, useState } from 'react';

export type EditOutcome = 'submit' | 'cancel' | 'edit';

interface Line {
  value: string;
  cursor: number;
}

export function useTextEdit() {
  const line = useRef<Line>({ value: '', cursor: 0 });
  const [, setShown] = useState<Line>(line.current);
  const update = (next: Line) => {
    line.current = next;
    setShown(next);
  };
  const begin = useCallback((initial: string) => update({ value: initial, cursor: initial.length }), []);
  const handle = (input: string, key: Key): { outcome: EditOutcome; value: string } => {
    const { value, cursor } = line.current;
    if (key.return) return { outcome: 'submit', value };
    if (key.escape) return { outcome: 'cancel', value };
    if (key.leftArrow) update({ value, cursor: Math.max(0, cursor - 1) });
    else if (key.rightArrow) update({ value, cursor: Math.min(value.length, cursor + 1) });
    else if (key.home || (key.ctrl && input === 'a')) update({ value, cursor: 0 });
    else if (key.end || (key.ctrl && input === 'e')) update({ value, cursor: value.length });
    else if (key.ctrl && input === 'u') update({ value: value.slice(cursor), cursor: 0 });
    else if (key.backspace || key.delete) {
      if (cursor > 0) update({ value: value.slice(0, cursor - 1) + value.slice(cursor), cursor: cursor - 1 });
    } else if (input && !key.ctrl && !key.meta && !key.upArrow && !key.downArrow && !key.tab) {
      const clean = input.replace(/[\r\n\x00-\x1f\x7f]/g, '');
      update({ value: value.slice(0, cursor) + clean + value.slice(cursor), cursor: cursor + clean.length });
    }
    return { outcome: 'edit', value: line.current.value };
  };
  return { value: line.current.value, cursor: line.current.cursor, begin, handle };
}
