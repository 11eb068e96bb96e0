// A one-line text field: the value with a block cursor (the screen owns the value and the keys).
/** @jsxRuntime automatic @jsxImportSource react */
import { Text } from 'ink';
import type { Theme } from '../theme.ts';

export function TextField({ value, cursor, placeholder, theme }: { value: string; cursor: number; placeholder?: string; theme: Theme }) {
  if (value === '' && placeholder) {
    return (
      <Text>
        <Text inverse> </Text>
        <Text color={theme.color('muted')}>{placeholder}</Text>
      </Text>
    );
  }
  const at = Math.min(Math.max(0, cursor), value.length);
  return (
    <Text>
      {value.slice(0, at)}
      <Text inverse>{value[at] ?? ' '}</Text>
      {value.slice(at + 1)}
    </Text>
  );
}
