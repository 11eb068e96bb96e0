// A local `gwctl serve` (the built CLI, embedded default database under a temp HOME) for the
// benchmark: its text URL once it listens, a key made with `gwctl admin`, its resident memory.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface BenchGateway {
  textUrl: string;
  key: string;
  pid: number;
  rssKiB(): number;
  stop(): Promise<number | null>;
}

export async function startGateway(gwctlBin: string, env: NodeJS.ProcessEnv, cwd: string): Promise<BenchGateway> {
  const child: ChildProcess = spawn(process.execPath, [gwctlBin, 'serve', '--host', '127.0.0.1', '--port', '0', '--image-port', '0', '--log-level', 'warn'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (t: string) => (out += t));
  child.stderr!.setEncoding('utf8').on('data', (t: string) => (err += t));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 120_000;
  while (!/image API\s+http/.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`gwctl serve did not start:\n${out}\n${err}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const textUrl = /text API\s+(http:\/\/\S+)/.exec(out)![1]!;
  const created = spawnSync(process.execPath, [gwctlBin, 'admin', 'key', 'create', '--user', 'admin', '--json'], { cwd, env, encoding: 'utf8', timeout: 60_000 });
  if (created.status !== 0) throw new Error(`gwctl admin key create failed: ${created.stderr}`);
  return {
    textUrl,
    key: (JSON.parse(created.stdout) as { key: string }).key,
    pid: child.pid!,
    rssKiB: () => Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]),
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
