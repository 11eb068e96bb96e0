// What a screen can ask of the app: move between screens, quit, hand the terminal to a client, and
// register its key handler. Provided by tui/app.tsx.
import type { Key } from 'ink';
import { createContext, useContext, useLayoutEffect, useRef } from 'react';
import type { LaunchRequest } from '../../core/launch/launch-client.ts';
import type { Theme } from '../theme.ts';

export type ScreenId = 'home' | 'verify' | 'start' | 'diagnose' | 'proxy' | 'acceptance' | 'client-config' | 'settings' | 'support';

/** The terminal goes to a client; the app comes back afterwards (or gwctl exits with its code). */
export interface Handover {
  request: LaunchRequest;
  command: string;
  /** Printed on the terminal before the client starts: route, why, settings changes. */
  banner: string[];
  afterClient: 'return' | 'exit';
}

/** What the app shows when it comes back from a client. */
export interface ResumeState {
  screen: ScreenId;
  lastClient?: { command: string; exitCode: number };
}

export type AppExit = { kind: 'quit'; code: number } | { kind: 'handover'; handover: Handover };

/** Return true when the key was used, so the app does not also treat it as a global key. */
export type KeyHandler = (input: string, key: Key) => boolean | void;

export interface Session {
  theme: Theme;
  width: number;
  height: number;
  /** Rows left for a screen's body inside the frame. */
  bodyHeight: number;
  resume: ResumeState | undefined;
  /** The `?` help is showing over the screen (the screen stays mounted underneath). */
  helpOpen: boolean;
  open(screen: ScreenId): void;
  back(): void;
  quit(code?: number): void;
  handover(handover: Handover): void;
  setKeys(handler: KeyHandler | null): void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside <SessionContext.Provider>');
  return session;
}

/** Registers the screen's key handler for as long as the screen is shown (latest closure wins). */
export function useScreenKeys(handler: KeyHandler): void {
  const session = useSession();
  const ref = useRef(handler);
  ref.current = handler;
  // A layout effect, so the handler is in place as soon as the screen is on the terminal: a key
  // pressed right after a screen change must reach the new screen.
  useLayoutEffect(() => {
    session.setKeys((input, key) => ref.current(input, key));
    return () => session.setKeys(null);
  }, [session.setKeys]);
}
