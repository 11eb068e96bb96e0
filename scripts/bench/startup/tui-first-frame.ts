// Time to the TUI's first frame: `gwctl tui` in a pseudo-terminal (util-linux `script`), measured
// from spawning it to the first output that holds the home screen's title. The same pty running
// `node -e` that prints one line is the floor (process start + pty), measured the same way.
import { spawn } from 'node:child_process';

function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Milliseconds until the output matches `ready`, in a 100x30 pty; the process group is then killed. */
export function timeToOutput(argv: string[], env: NodeJS.ProcessEnv, cwd: string, ready: RegExp, timeoutMs = 30_000): Promise<number> {
  const command = `stty cols 100 rows 30; exec ${argv.map(quote).join(' ')}`;
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd, env, detached: true, stdio: ['pipe', 'pipe', 'ignore'] });
    let seen = '';
    let done = false;
    const finish = (error: Error | null, value?: number) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
      if (error) reject(error);
      else resolve(value!);
    };
    const timer = setTimeout(() => finish(new Error(`no match for ${ready} within ${timeoutMs} ms; got: ${JSON.stringify(seen.slice(-400))}`)), timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      seen += text;
      if (ready.test(seen)) finish(null, Number(process.hrtime.bigint() - started) / 1e6);
    });
    child.once('error', (error) => finish(error));
    child.once('exit', () => setTimeout(() => finish(new Error(`exited before ${ready} appeared; got: ${JSON.stringify(seen.slice(-400))}`)), 50));
  });
}
