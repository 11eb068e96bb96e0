// Preloaded with --import into a measured process: at exit, appends the process's peak resident set
// (VmHWM from /proc/self/status, in KiB) to the file named by BENCH_PEAK_RSS_FILE.
import { appendFileSync, readFileSync } from 'node:fs';

const file = process.env.BENCH_PEAK_RSS_FILE;
if (file) {
  process.on('exit', () => {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) appendFileSync(file, `${match[1]}\n`);
  });
}
