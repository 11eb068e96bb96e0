// Terminal width of a help-text string. The build puts this in place of the string-width package
// inside the bundled yargs (and its cliui and wrap-ansi): that package builds an Intl.Segmenter and
// Unicode emoji expressions when it loads, which cost every command tens of milliseconds before it
// prints a line. Help text is ASCII with a few symbols (→ … ›), so a per-character rule is enough:
// escape sequences and zero-width characters count 0, East Asian wide characters and emoji 2,
// anything else 1.
import { stripVTControlCharacters } from 'node:util';

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}\p{Cc}]/u;
const WIDE =
  /[\p{Emoji_Presentation}\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\ua960-\ua97f\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;
const EMOJI_VARIATION = '\ufe0f';

export default function stringWidth(text: string): number {
  if (typeof text !== 'string' || text.length === 0) return 0;
  const plain = text.includes('\u001b') || text.includes('\u009b') ? stripVTControlCharacters(text) : text;
  if (PRINTABLE_ASCII.test(plain)) return plain.length;
  let width = 0;
  let previous = 0;
  for (const char of plain) {
    if (char === EMOJI_VARIATION) {
      // A character shown as emoji takes two columns.
      width += previous === 1 ? 1 : 0;
      previous = 2;
      continue;
    }
    if (ZERO_WIDTH.test(char)) continue;
    previous = WIDE.test(char) ? 2 : 1;
    width += previous;
  }
  return width;
}
