// Settings: gwctl's settings with their value and where each comes from (default, file, env,
// flag); a value can be stored in the settings file or removed from it, after a confirmation.
/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text } from 'ink';
import { useState } from 'react';
import { ByHand } from '../components/by-hand.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { Problem } from '../components/problem.tsx';
import { TextField } from '../components/text-field.tsx';
import { cycle, movement } from '../hooks/keys.ts';
import type { ProblemInfo } from '../hooks/problem.ts';
import { useScreenKeys, useSession } from '../hooks/session.ts';
import { useSettingsEditor } from '../hooks/use-settings-editor.ts';
import { useTextEdit } from '../hooks/use-text-edit.ts';
import { BACK, HELP, ScreenFrame } from './screen-frame.tsx';

const SETTINGS_HELP = {
  about: [
    'Every gwctl setting, its value and its source: default < settings file < environment < flag.',
    'Editing stores the value in the settings file (owner-only, 0600); an environment variable or a',
    'flag still wins over it. Keys are never stored: export them in the shell instead.',
  ],
  keys: [
    ['enter', 'edit the selected setting'],
    ['u', 'remove it from the settings file'],
    ['in the field', 'enter save · esc cancel · ←→ move · ctrl-u clear'],
  ] as const,
};

type Mode = { kind: 'list' } | { kind: 'edit' } | { kind: 'confirm-save'; raw: string } | { kind: 'confirm-unset' };

export function SettingsScreen() {
  const session = useSession();
  const theme = session.theme;
  const editor = useSettingsEditor();
  const text = useTextEdit();
  const [selected, setSelected] = useState(0);
  const [mode, setMode] = useState<Mode>({ kind: 'list' });
  const [message, setMessage] = useState<{ ok: true; text: string } | { ok: false; problem: ProblemInfo } | null>(null);
  const row = editor.rows[selected]!;
  useScreenKeys((input, key) => {
    if (mode.kind === 'edit') {
      const { outcome, value } = text.handle(input, key);
      if (outcome === 'cancel') setMode({ kind: 'list' });
      if (outcome === 'submit') setMode({ kind: 'confirm-save', raw: value });
      return true;
    }
    if (mode.kind === 'confirm-save' || mode.kind === 'confirm-unset') {
      if (input === 'y' || key.return) {
        const outcome = mode.kind === 'confirm-save' ? editor.save(row.definition.key, mode.raw) : editor.remove(row.definition.key);
        if (outcome.ok) {
          const note = outcome.stored.overriddenBy ? ` (note: ${outcome.stored.overriddenBy} is set in this environment and overrides the file)` : '';
          setMessage({ ok: true, text: mode.kind === 'confirm-save' ? `${row.definition.key} saved${note}` : `${row.definition.key} removed from the settings file${note}` });
        } else setMessage({ ok: false, problem: outcome.problem });
        setMode({ kind: 'list' });
      } else if (input === 'n' || key.escape) setMode({ kind: 'list' });
      return true;
    }
    const move = movement(input, key);
    if (move !== null) {
      setSelected((s) => cycle(s, move, editor.rows.length));
      setMessage(null);
      return true;
    }
    if (key.return) {
      text.begin(row.stored || (row.value === '(not set)' ? '' : row.value));
      setMessage(null);
      setMode({ kind: 'edit' });
      return true;
    }
    if (input === 'u') {
      setMode({ kind: 'confirm-unset' });
      return true;
    }
    return false;
  });
  // The list shows a window around the selected row, leaving room for the details, the field and
  // a confirmation under it.
  const reserved = mode.kind === 'confirm-save' || mode.kind === 'confirm-unset' ? 14 : mode.kind === 'edit' ? 7 : message ? 8 : 5;
  const visible = Math.max(3, Math.min(editor.rows.length, session.bodyHeight - reserved - (editor.problem ? 2 : 0)));
  const first = Math.min(Math.max(0, selected - Math.floor(visible / 2)), editor.rows.length - visible);
  const keyWidth = 22;
  const valueWidth = Math.max(20, Math.min(60, session.width - keyWidth - 28));
  const editing = mode.kind === 'edit';
  return (
    <ScreenFrame
      title="Settings"
      hints={
        editing
          ? [['enter', 'save'], ['esc', 'cancel'], ['←→', 'move'], ['ctrl-u', 'clear']]
          : mode.kind === 'list'
            ? [['↑↓', 'move'], ['enter', 'edit'], ['u', 'unset'], BACK, HELP]
            : [['y', mode.kind === 'confirm-save' ? 'save' : 'remove'], ['n', 'cancel']]
      }
      help={SETTINGS_HELP}
    >
      {editor.problem && <Problem message={editor.problem.message} remedy={editor.problem.remedy} theme={theme} />}
      {editor.rows.slice(first, first + visible).map((r, j) => ({ r, i: first + j })).map(({ r, i }) => (
        <Box key={r.definition.key} flexShrink={0}>
          <Text color={i === selected ? theme.color('accent') : undefined}>{i === selected ? `${theme.symbols.pointer} ` : '  '}</Text>
          <Box width={keyWidth} flexShrink={0}>
            <Text bold={i === selected}>{r.definition.key}</Text>
          </Box>
          <Box width={valueWidth} flexShrink={0} marginRight={1}>
            <Text wrap="truncate-end">{r.value}</Text>
          </Box>
          <Text color={theme.color('muted')} wrap="truncate-end">
            {r.source.startsWith('file ') ? 'file' : r.source}
          </Text>
        </Box>
      ))}
      {visible < editor.rows.length && (
        <Text color={theme.color('muted')} wrap="truncate-end">
          {first > 0 ? '↑ ' : '  '}settings {first + 1}–{first + visible} of {editor.rows.length}
          {first + visible < editor.rows.length ? ' ↓' : ''}
        </Text>
      )}
      <Box flexDirection="column" marginTop={1} flexShrink={0}>
        <Text color={theme.color('muted')} wrap="truncate-end">
          {row.definition.describe}
        </Text>
        <Text color={theme.color('muted')} wrap="truncate-end">
          source: {row.source} · variable {row.definition.env} · flag --{row.definition.flag}
        </Text>
        {editing && (
          <Box>
            <Box flexShrink={0}>
              <Text>{row.definition.key} = </Text>
            </Box>
            {editor.shown(text.value).keyLike ? (
              <Text>
                {editor.shown(text.value).text} <Text color={theme.color('fail')}>{theme.symbols.fail} looks like an API key: it will not be stored</Text>
              </Text>
            ) : (
              <TextField value={text.value} cursor={text.cursor} placeholder="(empty)" theme={theme} />
            )}
          </Box>
        )}
        {mode.kind === 'confirm-save' && (
          <ConfirmDialog title={`Save ${row.definition.key} in ${editor.file}?`} changes={[`${row.definition.key}: ${row.stored || '(not in the file)'} → ${editor.shown(mode.raw).text}`]} confirmLabel="save" theme={theme} />
        )}
        {mode.kind === 'confirm-unset' && (
          <ConfirmDialog title={`Remove ${row.definition.key} from ${editor.file}?`} changes={[`${row.definition.key}: ${row.stored || '(not in the file)'} → removed (the default or environment applies)`]} confirmLabel="remove" theme={theme} />
        )}
        {message?.ok === true && (
          <Text color={theme.color('pass')}>
            {theme.symbols.pass} {message.text}
          </Text>
        )}
        {message?.ok === false && <Problem message={message.problem.message} remedy={message.problem.remedy} theme={theme} />}
        <ByHand command={`gwctl config set ${row.definition.key} <value>   ·   gwctl config list`} theme={theme} />
      </Box>
    </ScreenFrame>
  );
}
