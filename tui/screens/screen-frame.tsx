// Every screen's frame: title, body, key hints, and the `?` help drawn over the body while the
// screen itself (and what it is running) stays as it is.
/** @jsxRuntime automatic @jsxImportSource react */
import type { ReactNode } from 'react';
import { Frame } from '../components/frame.tsx';
import { HelpOverlay } from '../components/help-overlay.tsx';
import type { KeyHint } from '../components/key-hints.tsx';
import { useSession } from '../hooks/session.ts';

export interface ScreenHelp {
  about: string[];
  keys: readonly KeyHint[];
}

export function ScreenFrame({ title, hints, help, note, children }: { title: string; hints: readonly KeyHint[]; help: ScreenHelp; note?: string; children: ReactNode }) {
  const session = useSession();
  return (
    <Frame title={title} width={session.width} height={session.height} hints={session.helpOpen ? [['any key', 'close help']] : hints} note={note} theme={session.theme}>
      {session.helpOpen ? <HelpOverlay title={title} about={help.about} keys={help.keys} theme={session.theme} /> : children}
    </Frame>
  );
}

export const BACK: KeyHint = ['esc', 'back'];
export const HELP: KeyHint = ['?', 'help'];
