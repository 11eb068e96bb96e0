// Every gwctl setting: its key, flag, environment variable, default and validation. The layers
// (default or profile < file < env < flag) are resolved by resolve-settings.ts from this one table.
import { delimiter } from 'node:path';
import { CLIENT_PROFILES, PROFILE_NAMES, type ProfileDefaults } from './client-profiles.ts';
import { parseProxyPackage, DEFAULT_PROXY_PACKAGE } from './proxy-package.ts';
import { SettingError } from './setting-error.ts';

export type SettingKey =
  | 'baseUrl'
  | 'imageBaseUrl'
  | 'proxyUrl'
  | 'client.profile'
  | 'client.command'
  | 'client.auth'
  | 'client.baseUrlVar'
  | 'client.tokenVar'
  | 'client.apiKeyVar'
  | 'client.model'
  | 'client.modelVar'
  | 'client.backgroundModelVars'
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
  /** When set, the default comes from the active client profile (client.profile) instead. */
  fromProfile?: (profile: ProfileDefaults) => SettingValue | null;
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
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) throw new SettingError(`${where} is not an environment variable name: "${value}".`, 'Use letters, digits and underscores, e.g. ANTHROPIC_BASE_URL.');
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
  // An empty JSON array is allowed: a client that keeps no settings files.
  if (!Array.isArray(items) || items.some((i) => typeof i !== 'string' || i.trim() === '')) {
    throw new SettingError(`${where} must be a list of paths.`, `Give a JSON array of paths, or paths separated by "${delimiter}".`);
  }
  return items.map((i: string) => i.trim());
}

/** Variable names, as a JSON array (`[]` for none) or separated by commas, colons or spaces. */
function varNames(raw: unknown, where: string): string[] {
  let items: unknown = raw;
  if (typeof raw === 'string') {
    const trimmed = raw.trim();
    if (trimmed.startsWith('[')) {
      try {
        items = JSON.parse(trimmed);
      } catch {
        throw new SettingError(`${where} is not a valid JSON array.`, 'Give variable names separated by commas, or a JSON array ([] for none).');
      }
    } else {
      items = trimmed.split(/[\s,:]+/).filter(Boolean);
    }
  }
  if (!Array.isArray(items)) throw new SettingError(`${where} must be a list of variable names.`, 'Give variable names separated by commas, or a JSON array ([] for none).');
  return items.map((item, i) => varName(item, `${where} (item ${i + 1})`));
}

function oneOf(values: readonly string[], remedy: string) {
  return (raw: unknown, where: string): string => {
    const value = text(raw, where);
    if (!values.includes(value)) throw new SettingError(`${where} must be one of ${values.join(', ')}, got "${value}".`, remedy);
    return value;
  };
}

const AUTH_PATHS = ['service', 'vendor', 'oauth'];
const AFTER_CLIENT = ['return', 'exit'];

export const SETTING_DEFINITIONS: readonly SettingDefinition[] = [
  { key: 'baseUrl', flag: 'base-url', env: 'GWCTL_BASE_URL', default: null, parse: url, describe: '{base_url}: the service address, without /v1' },
  { key: 'imageBaseUrl', flag: 'image-base-url', env: 'GWCTL_IMAGE_BASE_URL', default: null, parse: url, describe: '{image_base_url}: the image API address, without /v1' },
  { key: 'proxyUrl', flag: 'proxy-url', env: 'GWCTL_PROXY_URL', default: 'http://127.0.0.1:9801', parse: url, describe: 'The local cache proxy' },
  {
    key: 'client.profile',
    flag: 'profile',
    env: 'GWCTL_CLIENT_PROFILE',
    default: 'claude',
    parse: oneOf(PROFILE_NAMES, 'Use claude (Claude Code), codex (Codex CLI), gemini (Gemini CLI), opencode (OpenCode), qwen (Qwen Code), or custom for any other messages-protocol client (then set client.command and the variable names).'),
    describe: `Client profile: ${PROFILE_NAMES.map((n) => `${n} (${CLIENT_PROFILES[n].describe})`).join('; ')}. It supplies the defaults of the other client.* settings`,
  },
  { key: 'client.command', flag: 'client', env: 'GWCTL_CLIENT', default: null, fromProfile: (p) => p.command, parse: text, describe: 'The client command to start (a name on PATH or a path)' },
  {
    key: 'client.auth',
    flag: 'auth',
    env: 'GWCTL_AUTH',
    default: 'service',
    describe: 'Authentication path: service (key of this service), vendor (official vendor key) or oauth (subscription login)',
    parse: oneOf(AUTH_PATHS, 'Use service for a key of this service.'),
  },
  { key: 'client.baseUrlVar', flag: 'base-url-var', env: 'GWCTL_BASE_URL_VAR', default: null, fromProfile: (p) => p.baseUrlVar, parse: varName, describe: "Client's variable for the base address" },
  { key: 'client.tokenVar', flag: 'token-var', env: 'GWCTL_TOKEN_VAR', default: null, fromProfile: (p) => p.tokenVar, parse: varName, describe: "Client's variable for a key of this service (the key may also be kept in MSGAPI_AUTH_TOKEN)" },
  { key: 'client.apiKeyVar', flag: 'api-key-var', env: 'GWCTL_API_KEY_VAR', default: null, fromProfile: (p) => p.apiKeyVar, parse: varName, describe: "Client's variable for an official vendor key (the key may also be kept in MSGAPI_API_KEY)" },
  {
    key: 'client.model',
    flag: 'model',
    env: 'GWCTL_CLIENT_MODEL',
    default: null,
    parse: text,
    describe: "Model the client uses for every request (not set: automatic, a text model the gateway serves when it lists none of the client's own)",
  },
  { key: 'client.modelVar', flag: 'model-var', env: 'GWCTL_MODEL_VAR', default: null, fromProfile: (p) => p.modelVar, parse: varName, describe: "Client's variable for its model" },
  {
    key: 'client.backgroundModelVars',
    flag: 'background-model-vars',
    env: 'GWCTL_BACKGROUND_MODEL_VARS',
    default: null,
    fromProfile: (p) => p.backgroundModelVars,
    parse: varNames,
    describe: "Client's variables for its background and alias models, set to the same model (comma-separated, or [] for none)",
  },
  {
    key: 'client.settingsFiles',
    flag: 'settings-files',
    env: 'GWCTL_SETTINGS_FILES',
    default: null,
    fromProfile: (p) => p.settingsFiles,
    parse: list,
    describe: `Client settings files whose env block is inspected (relative = under the working directory; separated by "${delimiter}" or a JSON array)`,
  },
  {
    key: 'tui.afterClient',
    flag: 'after-client',
    env: 'GWCTL_TUI_AFTER_CLIENT',
    default: 'return',
    describe: "What the TUI does when a client it started exits: return (back to gwctl) or exit (gwctl exits with the client's code)",
    parse: oneOf(AFTER_CLIENT, 'Use return to come back to gwctl, exit to leave with the client.'),
  },
  { key: 'client.printFlag', flag: 'print-flag', env: 'GWCTL_PRINT_FLAG', default: null, fromProfile: (p) => p.printFlag, parse: flag, describe: 'Client flag for one non-interactive prompt (acceptance and regression runs)' },
  { key: 'client.resumeFlag', flag: 'resume-flag', env: 'GWCTL_RESUME_FLAG', default: null, fromProfile: (p) => p.resumeFlag, parse: flag, describe: 'Client flag that resumes the last session (the resume run before and after a proxy change that alters request bodies)' },
  {
    key: 'proxy.package',
    flag: 'proxy-package',
    env: 'GWCTL_PROXY_PACKAGE',
    default: DEFAULT_PROXY_PACKAGE,
    parse: (raw, where) => parseProxyPackage(text(raw, where), where),
    describe: 'The cache proxy package to install, pinned to 4.2.1: a registry name (cache-fix-proxy) or a .tgz path (default: the tarball `npm run pack:proxy` builds)',
  },
];
