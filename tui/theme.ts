// Colours and symbols of the TUI. Every status carries a symbol and a word as well as a colour, so
// nothing depends on colour alone; with NO_COLOR set (any value, https://no-color.org) no colour is
// emitted at all: colour props are simply left off.

export type Tone = 'pass' | 'warn' | 'fail' | 'skip' | 'info' | 'accent' | 'muted';

export interface Theme {
  /** False when NO_COLOR is set. */
  colour: boolean;
  /** The colour for a tone, or undefined when colour is off. */
  color(tone: Tone): string | undefined;
  symbols: { pass: string; warn: string; fail: string; skip: string; pending: string; pointer: string; bullet: string };
  spinner: readonly string[];
}

const COLOURS: Record<Tone, string> = {
  pass: 'green',
  warn: 'yellow',
  fail: 'red',
  skip: 'gray',
  info: 'cyan',
  accent: 'cyan',
  muted: 'gray',
};

export function createTheme(env: NodeJS.ProcessEnv): Theme {
  const colour = env.NO_COLOR === undefined || env.NO_COLOR === '';
  return {
    colour,
    color: (tone) => (colour ? COLOURS[tone] : undefined),
    symbols: { pass: '✔', warn: '⚠', fail: '✖', skip: '○', pending: '·', pointer: '›', bullet: '•' },
    spinner: ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'],
  };
}
