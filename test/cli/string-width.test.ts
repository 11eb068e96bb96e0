// The string-width stand-in the build gives the bundled yargs: the widths help text needs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import stringWidth from '../../cli/string-width.ts';

test('ASCII, escape sequences, symbols, wide characters, emoji and zero-width characters', () => {
  const cases: Array<[string, number]> = [
    ['', 0],
    ['gwctl explain <status>', 22],
    ['\u001b[1m↑↓\u001b[22m move', 7],
    ['base URL → {base_url}/v1 …', 26],
    ['gwctl › Home', 12],
    ['日本語', 6],
    ['한국어 ok', 9],
    ['ｆｕｌｌ', 8],
    ['✔ ok', 4],
    ['🚀 go', 5],
    ['❤️', 2],
    ['e\u0301', 1],
    ['a\u200bb', 2],
  ];
  for (const [text, width] of cases) assert.equal(stringWidth(text), width, JSON.stringify(text));
});
