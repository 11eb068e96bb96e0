import http from 'node:http';
import { parsePort } from '../config/proxy-config.ts';
import type { CliIo } from './cli-io.ts';

const CHECK_TIMEOUT_MS = 3_000;

export function probeHealth(port: number): Promise<{ ok: boolean; detail: string }> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/health', timeout: CHECK_TIMEOUT_MS }, (res) => {
      res.resume();
      resolve({ ok: res.statusCode === 200, detail: `HTTP ${res.statusCode ?? '?'}` });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)));
    req.on('error', (error) => resolve({ ok: false, detail: error.message }));
  });
}

/** Exit 0 when healthy. With --restart-unit, an unhealthy proxy (down or 503) is restarted. */
export async function healthcheck(io: CliIo, restartUnit: string | undefined): Promise<number> {
  const port = parsePort(io.env.CACHE_FIX_PROXY_PORT, false);
  const result = await probeHealth(port);
  if (result.ok) return 0;
  io.stderr(`cache-fix-proxy healthcheck: http://127.0.0.1:${port}/health is not healthy (${result.detail})\n`);
  if (!restartUnit) return 1;
  const restart = io.run('systemctl', ['--user', 'restart', restartUnit]);
  if (restart.status === 0) {
    io.stderr(`cache-fix-proxy healthcheck: restarted ${restartUnit}\n`);
    return 0;
  }
  io.stderr(`cache-fix-proxy healthcheck: systemctl --user restart ${restartUnit} failed: ${restart.output.trim()}\n`);
  return 1;
}
