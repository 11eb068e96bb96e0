import { join } from 'node:path';
import { createProxyApp, type ProxyApp } from '../../../proxy/src/app.ts';
import { loadProxyConfig } from '../../../proxy/src/config/proxy-config.ts';
import type { BuiltinExtension } from '../../../proxy/src/transforms/types.ts';
import { tempDir } from './temp-dir.ts';

export interface ProxyUnderTest {
  url: string;
  port: number;
  home: string;
  app: ProxyApp;
  warnings: string[];
}

interface TestContextLike {
  after(fn: () => void | Promise<void>): void;
}

/**
 * The real proxy, in-process from source, on 127.0.0.1 with an ephemeral port, a temp HOME and an
 * empty extensions directory unless the test supplies one. Closed when the test ends.
 */
export async function startProxy(
  t: TestContextLike,
  upstream: string,
  env: Record<string, string> = {},
  options: { builtins?: readonly BuiltinExtension[]; home?: string } = {},
): Promise<ProxyUnderTest> {
  const home = options.home ?? tempDir(t, 'cfp-home-');
  const fullEnv = {
    HOME: home,
    CACHE_FIX_PROXY_PORT: '0',
    CACHE_FIX_PROXY_UPSTREAM: upstream,
    CACHE_FIX_EXTENSIONS_DIR: join(home, 'no-extensions'),
    CACHE_FIX_EXTENSIONS_CONFIG: join(home, 'extensions.json'),
    ...env,
  };
  const warnings: string[] = [];
  const config = loadProxyConfig(fullEnv, { packageRoot: home });
  const app = await createProxyApp(config, { warn: (line) => warnings.push(line), builtins: options.builtins });
  const address = await app.listen();
  t.after(() => app.close());
  return { url: `http://127.0.0.1:${address.port}`, port: address.port, home, app, warnings };
}
