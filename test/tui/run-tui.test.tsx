// runTui, the terminal owner: the alternate screen around the app; a start hands the terminal to
// the client (launch) and then comes back on the Start screen with the exit code, or, with
// tui.afterClient=exit, returns the client's exit code; q returns 0.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { after, test } from 'node:test';
import type { LaunchRequest } from '../../core/launch/launch-client.ts';
import { runTui } from '../../tui/run-tui.tsx';
import { waitFor } from '../helpers/wait-for.ts';
import { KEY, machine, type Machine } from './tui-harness.tsx';

const machines: Machine[] = [];
after(() => {
  for (const m of machines) m.sandbox.cleanup();
});

class Out extends EventEmitter {
  readonly isTTY = false;
  readonly columns = 80;
  readonly rows = 24;
  writes: string[] = [];
  write = (text: string) => {
    this.writes.push(text);
    return true;
  };
  get text(): string {
    return this.writes.join('');
  }
  get last(): string {
    return this.writes.at(-1) ?? '';
  }
}

class In extends EventEmitter {
  readonly isTTY = true;
  paused = 0;
  private data: string | null = null;
  write(data: string) {
    this.data = data;
    this.emit('readable');
  }
  read = () => {
    const d = this.data;
    this.data = null;
    return d;
  };
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {
    this.paused++;
  }
  ref() {}
  unref() {}
}

function start(env: NodeJS.ProcessEnv, exitCode: number) {
  const m = machine({ env });
  machines.push(m);
  const stdout = new Out();
  const stderr = new Out();
  const stdin = new In();
  const launched: LaunchRequest[] = [];
  const done = runTui({
    deps: m.deps,
    launch: async (request) => {
      launched.push(request);
      return exitCode;
    },
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    ink: { debug: true },
  });
  const until = (what: string, ...texts: string[]) => waitFor(() => texts.every((t) => stdout.last.includes(t)), { timeoutMs: 5000, what });
  const press = async (key: string) => {
    stdin.write(key);
    await new Promise((r) => setImmediate(r));
  };
  return { stdout, stderr, stdin, launched, done, until, press };
}

test('tui.afterClient=exit: the client gets the terminal and gwctl exits with its code', async () => {
  const t = start({ GWCTL_TUI_AFTER_CLIENT: 'exit' }, 7);
  await t.until('home', 'gwctl › Home', 'verified: 1 model');
  await t.press('2');
  await t.until('the start plan', "gwctl exits with the client's exit code");
  await t.press(KEY.enter);
  assert.equal(await t.done, 7);
  assert.equal(t.launched.length, 1);
  assert.match(t.launched[0]!.file, /\/claude$/);
  assert.ok(t.stdin.paused > 0, 'the keyboard was let go before the client started');
  assert.ok(t.stdout.text.startsWith('\u001b[?1049h'), 'the alternate screen first');
  assert.ok(t.stdout.text.endsWith('\u001b[?1049l'), 'and left at the end');
  assert.match(t.stderr.text, /^gwctl: proxy route → http:\/\/127\.0\.0\.1:9801; starting .*\/claude\n/);
});

test('a client that fails leads straight to a diagnosis of what it saw, with its verdict', async () => {
  const t = start({}, 1);
  await t.until('home', 'gwctl › Home', 'verified: 1 model');
  await t.press('2');
  await t.until('the start plan', 'back to gwctl');
  await t.press(KEY.enter);
  await t.until('the diagnosis after the client', 'gwctl › Diagnose', 'claude exited with code 1: diagnosing what it saw', 'Diagnosis (no status given)');
  await t.until('the diagnosis to finish', 'passed');
  assert.equal(t.launched.length, 1);
  await t.press('q');
  assert.equal(await t.done, 0);
});

test('tui.afterClient=return: back on the Start screen with the exit code; q then returns 0', async () => {
  const t = start({}, 0);
  await t.until('home', 'gwctl › Home', 'verified: 1 model');
  await t.press('2');
  await t.until('the start plan', 'back to gwctl');
  await t.press(KEY.enter);
  await t.until('gwctl back after the client', 'gwctl › Start client', '✔ claude exited with code 0');
  assert.equal(t.launched.length, 1);
  await t.press('q');
  assert.equal(await t.done, 0);
  assert.equal(t.stdout.text.split('\u001b[?1049h').length - 1, 2, 'the alternate screen entered twice');
  assert.equal(t.stdout.text.split('\u001b[?1049l').length - 1, 2, 'and left twice');
});
