// The one place that wires the TUI to the real world: undici for HTTP (GET, and the diagnosis' POST), execa (through
// core/launch/launch-client.ts) for the client, and the proxy operations of core/proxy. The proxy
// operations are created per call with the settings as they are then, so a change made on the
// Settings screen applies at once.
import type { HttpGet } from '../core/client/http-get.ts';
import { undiciGet } from '../core/client/undici-http-get.ts';
import { resolveSettings } from '../core/config/resolve-settings.ts';
import type { SettingKey } from '../core/config/setting-definitions.ts';
import { SettingsFile } from '../core/config/settings-file.ts';
import { launchClient, type LaunchRequest } from '../core/launch/launch-client.ts';
import { undiciPost } from '../core/proxy/http-post.ts';
import { createProxyOperations, type ProxyOperations } from '../core/proxy/proxy-operations.ts';
import { systemProxyEnvironment } from '../core/proxy/running-proxy-environment.ts';
import type { TuiDeps } from './hooks/engine.ts';
import type { ProxyOperationsPort } from './hooks/proxy-port.ts';

export interface ProductionInput {
  env: NodeJS.ProcessEnv;
  cwd: string;
  flags: Partial<Record<SettingKey, unknown>>;
  http?: HttpGet;
}

export function productionDeps(input: ProductionInput): { deps: TuiDeps; launch: (request: LaunchRequest) => Promise<number> } {
  const http = input.http ?? undiciGet;
  const operations = (): ProxyOperations => createProxyOperations({ env: input.env, cwd: input.cwd, http, settings: resolveSettings({ file: new SettingsFile(input.env), env: input.env, flags: input.flags }) });
  const proxy: ProxyOperationsPort = {
    status: () => operations().status(),
    plan: (action, options) => operations().plan(action, options),
    run: (action, options) => operations().run(action, options),
    acceptance: (options) => operations().acceptance(options),
  };
  const deps: TuiDeps = { env: input.env, cwd: input.cwd, flags: input.flags, http, post: undiciPost, now: () => new Date(), proxy, proxyEnvironment: systemProxyEnvironment() };
  return { deps, launch: (request) => launchClient(request) };
}
