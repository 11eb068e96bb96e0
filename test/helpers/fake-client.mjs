// A stand-in for the messages-protocol client: records the arguments and environment it was started
// with into the JSON file named by FAKE_CLIENT_RECORD, then exits with FAKE_CLIENT_EXIT (default 0).
// With FAKE_CLIENT_WAIT=1 it waits for SIGTERM/SIGINT, records which one arrived, and exits 128+n.
// It writes nothing to stdout, so it can also run inside a test process.
import { writeFileSync } from 'node:fs';

const recordFile = process.env.FAKE_CLIENT_RECORD;
const record = { argv: process.argv.slice(2), env: { ...process.env }, pid: process.pid, signal: null };
const save = () => {
  if (recordFile) writeFileSync(recordFile, JSON.stringify(record, null, 2));
};
save();
if (process.env.FAKE_CLIENT_WAIT === '1') {
  const numbers = { SIGINT: 2, SIGTERM: 15 };
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      record.signal = signal;
      save();
      process.exit(128 + numbers[signal]);
    });
  }
  record.waiting = true;
  save();
  setInterval(() => undefined, 1000);
} else {
  process.exit(Number(process.env.FAKE_CLIENT_EXIT ?? 0));
}
