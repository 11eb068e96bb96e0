// The gwctl TUI: a stack of screens in a full-screen frame. One keyboard handler for the whole app:
// the current screen sees each key first, then the keys that work everywhere (? help, q quit,
// esc back, ctrl-c quit). Leaving (quit, or handing the terminal to a client) goes through onExit,
// so the caller decides what happens next.
/** @jsxRuntime automatic @jsxImportSource react */
import { Text, useApp, useInput, useStdin, type Key } from 'ink';
import { useCallback, useMemo, useRef, useState, type JSX } from 'react';
import { EngineContext, type TuiDeps } from './hooks/engine.ts';
import { SessionContext, type AppExit, type Handover, type KeyHandler, type ResumeState, type ScreenId, type Session } from './hooks/session.ts';
import { useTerminalSize, type TerminalSize } from './hooks/use-terminal-size.ts';
import { AcceptanceScreen } from './screens/acceptance-screen.tsx';
import { ClientConfigScreen } from './screens/client-config-screen.tsx';
import { DiagnoseScreen } from './screens/diagnose-screen.tsx';
import { HomeScreen } from './screens/home-screen.tsx';
import { ProxyScreen } from './screens/proxy-screen.tsx';
import { SettingsScreen } from './screens/settings-screen.tsx';
import { StartScreen } from './screens/start-screen.tsx';
import { SupportScreen } from './screens/support-screen.tsx';
import { VerifyScreen } from './screens/verify-screen.tsx';
import { createTheme } from './theme.ts';

export const INTERRUPTED = 130;

const SCREENS: Record<ScreenId, () => JSX.Element> = {
  home: HomeScreen,
  verify: VerifyScreen,
  start: StartScreen,
  diagnose: DiagnoseScreen,
  proxy: ProxyScreen,
  acceptance: AcceptanceScreen,
  'client-config': ClientConfigScreen,
  settings: SettingsScreen,
  support: SupportScreen,
};

export interface AppProps {
  deps: TuiDeps;
  onExit: (exit: AppExit) => void;
  resume?: ResumeState;
  /** Fixed size (tests); otherwise the terminal's, following resizes. */
  size?: Partial<TerminalSize>;
}

function isPlain(key: Key): boolean {
  return !(key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.pageUp || key.pageDown || key.home || key.end || key.return || key.escape || key.ctrl || key.meta || key.tab || key.backspace || key.delete);
}

/** Ink re-subscribes a changed handler only after the frame is drawn; reading the latest one
 * through a ref (set during render) means a key that follows a change at once sees the new state. */
function Keyboard({ onKey }: { onKey: (input: string, key: Key) => void }) {
  const latest = useRef(onKey);
  latest.current = onKey;
  const stable = useCallback((input: string, key: Key) => latest.current(input, key), []);
  useInput(stable);
  return null;
}

export function App({ deps, onExit, resume, size }: AppProps) {
  const { exit } = useApp();
  const { isRawModeSupported } = useStdin();
  const terminal = useTerminalSize(size);
  const theme = useMemo(() => createTheme(deps.env), [deps.env]);
  const [stack, setStack] = useState<ScreenId[]>(() => (resume && resume.screen !== 'home' ? ['home', resume.screen] : ['home']));
  const [helpOpen, setHelpOpen] = useState(false);
  const screenKeys = useRef<KeyHandler | null>(null);
  const leaving = useRef(false);

  const leave = useCallback(
    (result: AppExit) => {
      if (leaving.current) return;
      leaving.current = true;
      onExit(result);
      exit();
    },
    [onExit, exit],
  );
  const open = useCallback((screen: ScreenId) => setStack((s) => [...s, screen]), []);
  const back = useCallback(() => setStack((s) => (s.length > 1 ? s.slice(0, -1) : s)), []);
  const quit = useCallback((code = 0) => leave({ kind: 'quit', code }), [leave]);
  const handover = useCallback((h: Handover) => leave({ kind: 'handover', handover: h }), [leave]);
  const setKeys = useCallback((handler: KeyHandler | null) => {
    screenKeys.current = handler;
  }, []);

  const height = Math.max(8, terminal.rows - 1);
  const session: Session = {
    theme,
    width: terminal.columns,
    height,
    bodyHeight: height - 3,
    resume,
    helpOpen,
    open,
    back,
    quit,
    handover,
    setKeys,
  };

  const dispatch = (input: string, key: Key) => {
    if (key.ctrl && input === 'c') {
      quit(INTERRUPTED);
      return;
    }
    if (helpOpen) {
      setHelpOpen(false);
      return;
    }
    if (screenKeys.current?.(input, key)) return;
    if (input === '?') setHelpOpen(true);
    else if (input === 'q') quit(0);
    else if (key.escape) back();
  };
  // tmux and fast typists can deliver several keys in one chunk; each is handled on its own.
  const onKey = (input: string, key: Key) => {
    if (input.length > 1 && isPlain(key) && !input.includes('\u001b')) for (const ch of input) dispatch(ch, { ...key, shift: ch !== ch.toLowerCase() });
    else dispatch(input, key);
  };

  const Screen = SCREENS[stack[stack.length - 1]!];
  return (
    <EngineContext.Provider value={deps}>
      <SessionContext.Provider value={session}>
        {isRawModeSupported ? <Keyboard onKey={onKey} /> : null}
        {isRawModeSupported ? null : <Text>This terminal does not support raw input; the TUI cannot read keys. Use the gwctl commands (gwctl --help).</Text>}
        <Screen key={stack.length + stack[stack.length - 1]!} />
      </SessionContext.Provider>
    </EngineContext.Provider>
  );
}
