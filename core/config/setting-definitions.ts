// Every gwctl setting: its key, flag, environment variable, default and validation. The layers
// (default < file < env < flag) are resolved by resolve-settings.ts from this one table.
import { delimiter } from 'node:path';
import { parseProxyPackage, DEFAULT_PROXY_PACKAGE } from './proxy-package.ts';
import { SettingError } from './setting-error.ts';

export type SettingKey =
  | 'baseUrl'
  | 'imageBaseUrl'
  | 'proxyUrl'
  | 'client.command'
  | 'client.auth'
  | 'client.baseUrlVar'
  | 'client.tokenVar'
  | 'client.apiKeyVar'
  | 'client.settingsFiles'
  | 'client.printFlag'
  | 'client.resumeFlag'
  | 'proxy.package'
  | 'tui.afterClient';

export type SettingValue = string | string[];

export interface SettingDefinition {
  key: SettingKey;
  /** Long flag without dashes, accepted by the commands that use the setting. */
  flag: string;
  env: string;
  describe: string;
  default: SettingValue | null;
  parse(raw: unknown, where: string): SettingValue;
}

function text(raw: unknown, where: string): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new SettingError(`${where} is empty.`, 'Give a value, or unset it to use the default.');
  if (/[\r\n]/.test(raw)) throw new SettingError(`${where} contains a line break.`, 'Give the value on one line.');
  return raw.trim();
}

function url(raw: unknown, where: string): string {
  const value = text(raw, where);
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new SettingError(`${where} is not a URL: "${value}".`, 'Use an http(s) address such as https://gateway.example.com.');
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') {
    throw new SettingError(`${where} must be an http(s) URL, got "${value}".`, 'Use an http(s) address such as https://gateway.example.com.');
  }
  if (parsed.search || parsed.hash || parsed.username || parsed.password) {
    throw new SettingError(`${where} must not carry a query, fragment or credentials: "${parsed.origin}${parsed.pathname}…".`, 'Give the base address only; keys come from the environment.');
  }
  return value.replace(/\/+$/, '');
}

function varName(raw: unknown, where: string): string {
  const value = text(raw, where);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) throw new SettingError(`${where} is not an environment variable name: "${value}".`, 'Use letters, digits and underscores, e.g. MSGAPI_BASE_URL.');
  return value;
}

function flag(raw: unknown, where: string): string {
  const value = text(raw, where);
  if (!/^-{1,2}[A-Za-z0-9][A-Za-z0-9-]*$/.test(value)) throw new SettingError(`${where} must be one command-line flag such as -p, got "${value}".`, 'Give the flag the client uses, without a value.');
  return value;
}

function list(raw: unknown, where: string): string[] {
  let items: unknown = raw;
  if (typeof raw === 'string') {
    const trimmed = raw.trim();
    if (trimmed.startsWith('[')) {
      try {
        items = JSON.parse(trimmed);
      } catch {
        throw new SettingError(`${where} is not a valid JSON array.`, `Give a JSON array of paths, or paths separated by "${delimiter}".`);
      }
    } else {
      items = trimmed.split(delimiter);
    }
  }
  if (!Array.isArray(items) || items.length === 0 || items.some((i) => typeof i !== 'string' || i.trim() === '')) {
    throw new SettingError(`${where} must be a non-empty list of paths.`, `Give a JSON array of paths, or paths separated by "${delimiter}".`);
  }
  return items.map((i: string) => i.trim());
}

const AUTH_PATHS = ['service', 'vendor', 'oauth'];
const AFTER_CLIENT = ['return', 'exit'];

export const SETTING_DEFINITIONS: readonly SettingDefinition[] = [
  { key: 'baseUrl', flag: 'base-url', env: 'GWCTL_BASE_URL', default: null, parse: url, describe: '{base_url}: the service address, without /v1' },
  { key: 'imageBaseUrl', flag: 'image-base-url', env: 'GWCTL_IMAGE_BASE_URL', default: null, parse: url, describe: '{image_base_url}: the image API address, without /v1' },
  { key: 'proxyUrl', flag: 'proxy-url', env: 'GWCTL_PROXY_URL', default: 'http://127.0.0.1:9801', parse: url, describe: 'The local cache proxy' },
  { key: 'client.command', flag: 'client', env: 'GWCTL_CLIENT', default: 'claude', parse: text, describe: 'The messages-protocol client to start' },
  {
    key: 'client.auth',
    flag: 'auth',
    env: 'GWCTL_AUTH',
    default: 'service',
    describe: 'Authentication path: service (key of this service), vendor (official vendor key) or oauth (subscription login)',
    parse: (raw, where) => {
      const value = text(raw, where);
      if (!AUTH_PATHS.includes(value)) throw new SettingError(`${where} must be one of ${AUTH_PATHS.join(', ')}, got "${value}".`, 'Use service for a key of this service.');
      return value;
    },
  },
  { key: 'client.baseUrlVar', flag: 'base-url-var', env: 'GWCTL_BASE_URL_VAR', default: 'MSGAPI_BASE_URL', parse: varName, describe: "Client's variable for the base address" },
  { key: 'client.tokenVar', flag: 'token-var', env: 'GWCTL_TOKEN_VAR', default: 'MSGAPI_AUTH_TOKEN', parse: varName, describe: "Client's variable for the service token" },
  { key: 'client.apiKeyVar', flag: 'api-key-var', env: 'GWCTL_API_KEY_VAR', default: 'MSGAPI_API_KEY', parse: varName, describe: "Client's variable for a vendor key" },
  {
    key: 'client.settingsFiles',
    flag: 'settings-files',
    env: 'GWCTL_SETTINGS_FILES',
    default: ['~/.claude/settings.json', '.claude/settings.json', '.claude/settings.local.json', '$CLAUDE_CONFIG_DIR/settings.json', '$CLAUDE_CONFIG_DIR/settings.local.json'],
    parse: list,
    describe: `Client settings files whose env block is inspected (relative = under the working directory; separated by "${delimiter}" or a JSON array)`,
  },
  {
    key: 'tui.afterClient',
    flag: 'after-client',
    env: 'GWCTL_TUI_AFTER_CLIENT',
    default: 'return',
    describe: "What the TUI does when a client it started exits: return (back to gwctl) or exit (gwctl exits with the client's code)",
    parse: (raw, where) => {
      const value = text(raw, where);
      if (!AFTER_CLIENT.includes(value)) throw new SettingError(`${where} must be one of ${AFTER_CLIENT.join(', ')}, got "${value}".`, 'Use return to come back to gwctl, exit to leave with the client.');
      return value;
    },
  },
  { key: 'client.printFlag', flag: 'print-flag', env: 'GWCTL_PRINT_FLAG', default: '-p', parse: flag, describe: 'Client flag for one non-interactive prompt (acceptance and regression runs)' },
  { key: 'client.resumeFlag', flag: 'resume-flag', env: 'GWCTL_RESUME_FLAG', default: '--continue', parse: flag, describe: 'Client flag that resumes the last session (the regression step of spec 9.4)' },
  {
    key: 'proxy.package',
    flag: 'proxy-package',
    env: 'GWCTL_PROXY_PACKAGE',
    default: DEFAULT_PROXY_PACKAGE,
    parse: (raw, where) => parseProxyPackage(text(raw, where), where),
    describe: 'The cache proxy package to install, pinned to 4.2.1: a registry name (cache-fix-proxy) or a .tgz path (default: the tarball `npm run pack:proxy` builds)',
  },
];
