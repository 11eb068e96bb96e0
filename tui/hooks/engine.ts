// What the hooks need from the outside world, handed in once at the root: environment, working
// directory, settings flags, the HTTP function, a clock and the proxy operations. Tests pass fakes;
// tui/production-deps.ts passes the real ones. Hooks are the only code that calls core/ with them.
import { createContext, useContext } from 'react';
import type { HttpGet } from '../../core/client/http-get.ts';
import type { HttpPost } from '../../core/proxy/http-post.ts';
import type { ProxyEnvironmentReader } from '../../core/proxy/running-proxy-environment.ts';
import type { SettingKey } from '../../core/config/setting-definitions.ts';
import type { ProxyOperationsPort } from './proxy-port.ts';

export interface TuiDeps {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Settings given as flags to `gwctl tui` (the top layer). */
  flags: Partial<Record<SettingKey, unknown>>;
  http: HttpGet;
  /** Sends the diagnosis' short real request; absent, that request is not sent (and says so). */
  post?: HttpPost;
  now: () => Date;
  /** Null when the proxy operations are not available in this build. */
  proxy: ProxyOperationsPort | null;
  /** Timeouts in ms; the CLI defaults when absent. */
  requestTimeoutMs?: number;
  probeTimeoutMs?: number;
  procVersion?: () => string;
  platform?: NodeJS.Platform;
  /** Reads the running proxy's process environment (its real upstream); absent, it is not read. */
  proxyEnvironment?: ProxyEnvironmentReader;
}

export const EngineContext = createContext<TuiDeps | null>(null);

export function useEngine(): TuiDeps {
  const deps = useContext(EngineContext);
  if (!deps) throw new Error('useEngine outside <EngineContext.Provider>');
  return deps;
}
