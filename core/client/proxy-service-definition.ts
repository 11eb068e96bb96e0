// Reads what the installed proxy service will run with: CACHE_FIX_PROXY_UPSTREAM and the
// port from the systemd unit or the launchd agent that `cache-fix-proxy install-service` wrote.
import { readFileSync } from 'node:fs';
import { proxyServiceFiles } from '../paths.ts';

export interface ProxyServiceDefinition {
  kind: 'systemd' | 'launchd';
  file: string;
  /** Captured environment, unescaped. */
  environment: Record<string, string>;
}

/** systemd `Environment=` values: several assignments per line, double quotes, `%%`. */
function systemdEnvironment(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*Environment\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    const rest = match[1]!;
    let i = 0;
    while (i < rest.length) {
      while (rest[i] === ' ' || rest[i] === '\t') i++;
      if (i >= rest.length) break;
      let word = '';
      if (rest[i] === '"') {
        i++;
        for (; i < rest.length && rest[i] !== '"'; i++) {
          if (rest[i] === '\\' && i + 1 < rest.length) i++;
          word += rest[i];
        }
        i++;
      } else {
        for (; i < rest.length && rest[i] !== ' ' && rest[i] !== '\t'; i++) word += rest[i];
      }
      const eq = word.indexOf('=');
      if (eq > 0) env[word.slice(0, eq)] = word.slice(eq + 1).replace(/%%/g, '%');
    }
  }
  return env;
}

function xmlText(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}

function launchdEnvironment(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  const block = /<key>EnvironmentVariables<\/key>\s*<dict>([\s\S]*?)<\/dict>/.exec(text)?.[1] ?? '';
  for (const m of block.matchAll(/<key>([^<]*)<\/key>\s*<string>([^<]*)<\/string>/g)) env[xmlText(m[1]!)] = xmlText(m[2]!);
  return env;
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The definition for this platform (the other one as a fallback), or undefined when none is installed. */
export function readProxyServiceDefinition(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): ProxyServiceDefinition | undefined {
  const files = proxyServiceFiles(env);
  const order: Array<'systemd' | 'launchd'> = platform === 'darwin' ? ['launchd', 'systemd'] : ['systemd', 'launchd'];
  for (const kind of order) {
    const text = read(files[kind]);
    if (text === undefined) continue;
    return { kind, file: files[kind], environment: kind === 'systemd' ? systemdEnvironment(text) : launchdEnvironment(text) };
  }
  return undefined;
}
