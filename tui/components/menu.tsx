// A vertical menu: the selected item is marked with a pointer (and inverse when colour is on).
/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text } from 'ink';
import type { Theme } from '../theme.ts';

export interface MenuItem {
  label: string;
  hint?: string;
  /** Shown dimmed and still selectable (the screen explains why it is unavailable). */
  disabled?: boolean;
}

export function Menu({ items, selected, theme, hintWidth }: { items: MenuItem[]; selected: number; theme: Theme; hintWidth?: number }) {
  const labelWidth = Math.max(...items.map((i) => i.label.length)) + 2;
  return (
    <Box flexDirection="column">
      {items.map((item, i) => {
        const active = i === selected;
        return (
          <Box key={item.label}>
            <Text color={active ? theme.color('accent') : undefined} bold={active}>
              {active ? `${theme.symbols.pointer} ` : '  '}
            </Text>
            <Box width={labelWidth} flexShrink={0}>
              <Text bold={active} inverse={active && theme.colour} color={item.disabled ? theme.color('muted') : undefined}>
                {item.label}
              </Text>
            </Box>
            {item.hint && hintWidth !== 0 && (
              <Text color={theme.color('muted')} wrap="truncate-end">
                {item.hint}
              </Text>
            )}
          </Box>
        );
      })}
    </Box>
  );
}
