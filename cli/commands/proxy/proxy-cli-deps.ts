// What every `gwctl proxy …` command shares: the settings flags it accepts, and the engine built from
// the resolved settings and this process (tests may substitute the HTTP, runner and platform parts).
import type { Argv } from 'yargs';
import type { HttpGet } from '../../../core/client/http-get.ts';
import type { SettingKey } from '../../../core/config/setting-definitions.ts';
import type { CommandRunner } from '../../../core/proxy/command-runner.ts';
import type { HttpPost } from '../../../core/proxy/http-post.ts';
import { createProxyOperations, type ProxyOperationDeps, type ProxyOperations } from '../../../core/proxy/proxy-operations.ts';
import type { CliContext } from '../../cli-context.ts';
import { settingsOptions } from '../config/settings-options.ts';

export interface ProxyCliDeps {
  http?: HttpGet;
  post?: HttpPost;
  run?: CommandRunner;
  platform?: NodeJS.Platform;
  uid?: number;
  now?: () => Date;
}

export const PROXY_SETTING_KEYS: readonly SettingKey[] = [
  'baseUrl',
  'proxyUrl',
  'client.command',
  'client.auth',
  'client.baseUrlVar',
  'client.tokenVar',
  'client.apiKeyVar',
  'client.settingsFiles',
  'client.printFlag',
  'client.resumeFlag',
  'proxy.package',
];

export function withProxySettings<T>(y: Argv<T>): Argv<T> {
  return settingsOptions.add(y, PROXY_SETTING_KEYS);
}

export function proxyOperations(ctx: CliContext, args: Record<string, unknown>, deps: ProxyCliDeps, extra: Partial<ProxyOperationDeps> = {}): ProxyOperations {
  const settings = settingsOptions.load(args, ctx);
  return createProxyOperations({ ...deps, env: ctx.env, cwd: process.cwd(), settings, ...extra });
}

/** A positive whole number of milliseconds, or the yargs check message. */
export function checkMs(name: string, value: unknown): true | string {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? true : `--${name} must be a positive whole number of milliseconds, got ${String(value)}.`;
}
