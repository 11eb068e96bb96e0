// Size and colour: every screen fits 80x24 (no line wider, no more rows than the terminal); wider
// terminals get the side-by-side home and full-width rules, and a resize is followed; NO_COLOR
// turns every colour off while symbols and words stay.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTheme } from '../../tui/theme.ts';
import { KEY, renderApp, renderSized, machinesForThisFile } from './tui-harness.tsx';

const setup = machinesForThisFile();

function fits(frame: string, columns: number, rows: number, what: string): void {
  const lines = frame.split('\n');
  assert.ok(lines.length <= rows - 1, `${what}: ${lines.length} rows (terminal has ${rows}, the last stays free)`);
  for (const line of lines) assert.ok([...line].length <= columns, `${what}: a line is ${[...line].length} wide: ${line}`);
}

test('80x24: home and every screen fit, with their title and key hints', async () => {
  const app = renderApp(setup().deps, { size: { columns: 80, rows: 24 } });
  fits(await app.waitFor('verified: 1 model', '? help · q quit', '↑↓ move'), 80, 24, 'home');
  const screens: Array<[string, string, string]> = [
    ['1', 'Verify key', 'OK: 4 passed'],
    ['2', 'Start client', 'proxy → http://127.0.0.1:9801'],
    ['3', 'Diagnose', 'What did the client show?'],
    ['4', 'Proxy', 'Uninstall service'],
    ['5', 'Acceptance', 'Three layers'],
    ['6', 'Client config', 'Pinned in client settings'],
    ['7', 'Settings', 'tui.afterClient'],
    ['8', 'Support', 'Look up:'],
  ];
  for (const [key, title, ready] of screens) {
    await app.press(key);
    fits(await app.waitFor(`gwctl › ${title}`, ready, 'esc back'), 80, 24, title);
    await app.press(KEY.escape);
    await app.waitFor('gwctl › Home');
  }
  await app.press('3', KEY.enter);
  fits(await app.waitFor('Diagnosis (no status given)', /OK:|FAILED:/), 80, 24, 'diagnose results');
  app.unmount();
});

test('a wide terminal gets the menu beside the status panel; a resize is followed', async () => {
  const app = renderSized(setup().deps, 140, 40);
  const wide = await app.waitFor('verified: 1 model');
  fits(wide, 140, 40, 'home 140x40');
  assert.ok(wide.split('\n').some((l) => /1 Verify key.*│ (Base URL|Key)/.test(l)), 'menu and panel side by side');
  assert.ok(wide.includes('─'.repeat(140)), 'the rule spans the width');
  app.resize(80, 24);
  const narrow = await app.waitUntil((f) => f.includes(`${'─'.repeat(80)}\n`) && f.split('\n').length <= 23, 'the 80x24 layout');
  fits(narrow, 80, 24, 'home after resize');
  assert.ok(!narrow.split('\n').some((l) => /1 Verify key.*Base URL/.test(l)), 'stacked again');
  app.unmount();
});

test('NO_COLOR: no colour at all; symbols and words carry the meaning', () => {
  const plain = createTheme({ NO_COLOR: '1' });
  assert.equal(plain.colour, false);
  for (const tone of ['pass', 'warn', 'fail', 'skip', 'info', 'accent', 'muted'] as const) assert.equal(plain.color(tone), undefined, tone);
  assert.deepEqual([plain.symbols.pass, plain.symbols.warn, plain.symbols.fail], ['✔', '⚠', '✖']);
  const coloured = createTheme({});
  assert.equal(coloured.color('fail'), 'red');
  assert.equal(createTheme({ NO_COLOR: '' }).colour, true, 'an empty NO_COLOR does not count (no-color.org)');
});
