// The client runs with the given environment, its exit code comes back, and signals sent to gwctl
// reach it (SIGINT only when no terminal already delivered it).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { launchClient, type SignalSource } from '../../../core/launch/launch-client.ts';
import { installFakeClient, readClientRecord } from '../../helpers/fake-client.ts';
import { waitFor } from '../../helpers/wait-for.ts';

const root = mkdtempSync(join(tmpdir(), 'gwctl-launch-'));
after(() => rmSync(root, { recursive: true, force: true }));
const client = installFakeClient(join(root, 'bin'));

class FakeSignals implements SignalSource {
  handlers = new Map<string, Set<() => void>>();
  on(signal: NodeJS.Signals, handler: () => void) {
    if (!this.handlers.has(signal)) this.handlers.set(signal, new Set());
    this.handlers.get(signal)!.add(handler);
  }
  off(signal: NodeJS.Signals, handler: () => void) {
    this.handlers.get(signal)?.delete(handler);
  }
  emit(signal: NodeJS.Signals) {
    for (const h of this.handlers.get(signal) ?? []) h();
  }
}

test('exit code and environment pass through; nothing of the parent leaks in', async () => {
  const record = join(root, 'exit.json');
  const code = await launchClient({ file: client, args: ['-p', 'hi there'], env: { PATH: process.env.PATH, FAKE_CLIENT_RECORD: record, FAKE_CLIENT_EXIT: '7', ONLY: 'this' }, cwd: root });
  assert.equal(code, 7);
  const seen = readClientRecord(record)!;
  assert.deepEqual(seen.argv, ['-p', 'hi there']);
  assert.equal(seen.env.ONLY, 'this');
  assert.equal(seen.env.HOME, undefined, 'extendEnv is off: only the given environment');
});

test('SIGTERM is forwarded; SIGINT is forwarded only without a terminal', async () => {
  for (const [signal, attached, expected] of [
    ['SIGTERM', true, 143],
    ['SIGINT', false, 130],
  ] as const) {
    const record = join(root, `${signal}.json`);
    const signals = new FakeSignals();
    const running = launchClient({ file: client, args: [], env: { PATH: process.env.PATH, FAKE_CLIENT_RECORD: record, FAKE_CLIENT_WAIT: '1' }, cwd: root }, { signals, attachedToTerminal: attached });
    await waitFor(() => readClientRecord(record)?.waiting, { what: 'the fake client to wait' });
    signals.emit(signal);
    assert.equal(await running, expected);
    assert.equal(readClientRecord(record)!.signal, signal);
    assert.equal(signals.handlers.get(signal)!.size, 0, 'handlers removed after the client exits');
  }
});

test('SIGINT from a terminal is not sent a second time', async () => {
  const record = join(root, 'tty.json');
  const signals = new FakeSignals();
  const running = launchClient({ file: client, args: [], env: { PATH: process.env.PATH, FAKE_CLIENT_RECORD: record, FAKE_CLIENT_WAIT: '1' }, cwd: root }, { signals, attachedToTerminal: true });
  await waitFor(() => readClientRecord(record)?.waiting, { what: 'the fake client to wait' });
  signals.emit('SIGINT');
  signals.emit('SIGTERM');
  assert.equal(await running, 143);
  assert.equal(readClientRecord(record)!.signal, 'SIGTERM');
});
