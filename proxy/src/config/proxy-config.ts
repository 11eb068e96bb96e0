import { homedir } from 'node:os';
import { join } from 'node:path';
import { ProxyError } from '../errors.ts';
import { envEitherCase, type Env } from './env.ts';
import { normaliseLoopback } from './loopback.ts';

export const DEFAULT_PORT = 9801;
export const DEFAULT_BIND = '127.0.0.1';
// The official messages-API vendor root, the 4.2.1 default (reference section 6).
export const DEFAULT_UPSTREAM = 'https://api.anthropic.com';
export const DEFAULT_TIMEOUT_MS = 600_000;
/** Largest single SSE event from the upstream; a real event is a few kilobytes. */
export const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;
/** Largest answer collected whole for the hooks that need it; bigger ones pass through untouched. */
export const DEFAULT_MAX_COLLECT_BYTES = 16 * 1024 * 1024;

export interface ProxyConfig {
  port: number;
  bind: string;
  /** Upstream root with any base path kept and trailing slashes removed. */
  upstream: URL;
  timeoutMs: number;
  /** Beyond this an event stream gets an error event and is closed. */
  maxEventBytes: number;
  /** Beyond this a collected answer is passed through without the hooks that read it whole. */
  maxCollectBytes: number;
  debug: boolean;
  debugLogPath: string;
  hotReload: boolean;
  oauthRefresh: boolean;
  caFile: string | undefined;
  rejectUnauthorized: boolean;
  /** Proxy for https upstreams (HTTPS_PROXY, falling back to HTTP_PROXY as curl does). */
  httpsProxy: string | undefined;
  /** Proxy for plain-http upstreams (HTTP_PROXY only). */
  httpProxy: string | undefined;
  noProxy: string;
  extensionsDir: string;
  extensionsConfigPath: string;
  homeDir: string;
  env: Env;
}

export interface ConfigDefaults {
  /** Where the packaged extensions.json and extensions/ live (the package root). */
  packageRoot: string;
}

export function parsePort(raw: string | undefined, allowZero: boolean): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_PORT;
  const text = raw.trim();
  const port = /^\d+$/.test(text) ? Number(text) : NaN;
  const min = allowZero ? 0 : 1;
  if (!Number.isInteger(port) || port < min || port > 65535) {
    throw new ProxyError(
      'bad_port',
      `CACHE_FIX_PROXY_PORT must be a whole number from ${min} to 65535, got "${raw}"`,
      `unset it to use ${DEFAULT_PORT}`,
    );
  }
  return port;
}

export function parseUpstream(raw: string | undefined): URL {
  const text = raw === undefined || raw.trim() === '' ? DEFAULT_UPSTREAM : raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ProxyError('bad_upstream', `CACHE_FIX_PROXY_UPSTREAM is not a URL: "${text}"`, 'use the upstream root, e.g. https://gateway.example.com');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ProxyError('bad_upstream', `CACHE_FIX_PROXY_UPSTREAM must be http or https, got "${url.protocol}"`);
  }
  url.pathname = url.pathname.replace(/\/+$/, '');
  url.search = '';
  url.hash = '';
  return url;
}

function parseTimeout(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_TIMEOUT_MS;
  const ms = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isInteger(ms) || ms < 1) {
    throw new ProxyError('bad_timeout', `CACHE_FIX_PROXY_TIMEOUT must be a positive number of milliseconds, got "${raw}"`);
  }
  return ms;
}

function parseBytes(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const bytes = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1024) {
    throw new ProxyError('bad_size', `${name} must be a whole number of bytes, at least 1024, got "${raw}"`, `unset it to use ${fallback}`);
  }
  return bytes;
}

export function homeDirOf(env: Env): string {
  return env.HOME && env.HOME !== '' ? env.HOME : homedir();
}

export function loadProxyConfig(env: Env, defaults: ConfigDefaults): ProxyConfig {
  const bindRaw = env.CACHE_FIX_PROXY_BIND && env.CACHE_FIX_PROXY_BIND.trim() !== '' ? env.CACHE_FIX_PROXY_BIND : DEFAULT_BIND;
  const bind = normaliseLoopback(bindRaw);
  if (bind === null) {
    throw new ProxyError(
      'bad_bind',
      `refusing to listen on ${bindRaw}: the proxy forwards your credentials unchanged and may only bind to loopback`,
      'unset CACHE_FIX_PROXY_BIND (default 127.0.0.1) or use ::1; never expose the proxy to a network',
    );
  }
  const homeDir = homeDirOf(env);
  const reject = (env.CACHE_FIX_PROXY_REJECT_UNAUTHORIZED ?? '').trim().toLowerCase();
  return {
    port: parsePort(env.CACHE_FIX_PROXY_PORT, true),
    bind,
    upstream: parseUpstream(env.CACHE_FIX_PROXY_UPSTREAM),
    timeoutMs: parseTimeout(env.CACHE_FIX_PROXY_TIMEOUT),
    maxEventBytes: parseBytes('CACHE_FIX_PROXY_MAX_EVENT_BYTES', env.CACHE_FIX_PROXY_MAX_EVENT_BYTES, DEFAULT_MAX_EVENT_BYTES),
    maxCollectBytes: parseBytes('CACHE_FIX_PROXY_MAX_COLLECT_BYTES', env.CACHE_FIX_PROXY_MAX_COLLECT_BYTES, DEFAULT_MAX_COLLECT_BYTES),
    debug: Boolean(env.CACHE_FIX_DEBUG) && env.CACHE_FIX_DEBUG !== '0',
    debugLogPath: env.CACHE_FIX_DEBUG_LOG || join(homeDir, '.claude', 'cache-fix-debug.log'),
    hotReload: env.CACHE_FIX_HOT_RELOAD === 'on',
    oauthRefresh: env.CACHE_FIX_OAUTH_REFRESH === 'on',
    caFile: env.CACHE_FIX_PROXY_CA_FILE || undefined,
    rejectUnauthorized: reject !== '0' && reject !== 'false',
    httpsProxy: envEitherCase(env, 'HTTPS_PROXY') ?? envEitherCase(env, 'HTTP_PROXY'),
    httpProxy: envEitherCase(env, 'HTTP_PROXY'),
    noProxy: envEitherCase(env, 'NO_PROXY') ?? '',
    extensionsDir: env.CACHE_FIX_EXTENSIONS_DIR || join(defaults.packageRoot, 'extensions'),
    extensionsConfigPath: env.CACHE_FIX_EXTENSIONS_CONFIG || join(defaults.packageRoot, 'extensions.json'),
    homeDir,
    env,
  };
}
