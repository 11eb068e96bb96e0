// The settings a support bundle records, each with where its value came from: gwctl's own settings
// (default, client profile, file, environment, flag), then what the diagnosis read outside them:
// the client's base address and credential variables (credentials masked) and the proxy's upstream.
import type { ResolvedSetting, ResolvedSettings } from '../config/resolve-settings.ts';
import type { DiagnoseContext } from '../doctor/diagnose-context.ts';
import { maskCredential } from '../doctor/mask-credential.ts';
import { tildePath } from '../paths.ts';

export interface BundleSetting {
  name: string;
  /** Secrets masked (sk-…a1b2); null when not set. */
  value: string | string[] | null;
  source: string;
}

function sourceOf(s: ResolvedSetting, env: NodeJS.ProcessEnv): string {
  if (s.source === 'default') return 'default';
  if (s.source === 'profile') return `profile ${s.origin}`;
  if (s.source === 'file') return `file ${tildePath(s.origin!, env)}`;
  return `${s.source} ${s.origin}`;
}

/** An address without any user:password part, which no bundle may carry. */
function withoutUserinfo(value: string): string {
  try {
    const url = new URL(value);
    if (!url.username && !url.password) return value;
    url.username = '';
    url.password = '';
    return `${url.toString()} (user:password removed)`;
  } catch {
    return value;
  }
}

export function bundleSettings(settings: ResolvedSettings, ctx: DiagnoseContext): BundleSetting[] {
  const env = ctx.env;
  const rows: BundleSetting[] = Object.values(settings).map((s) => ({ name: s.key, value: s.value, source: sourceOf(s, env) }));
  const where = (source: string) => (source === 'shell' ? 'shell' : `pinned in ${tildePath(source, env)}`);
  if (ctx.client === 'messages') {
    const base = ctx.effective('baseUrl');
    rows.push({ name: base.variable, value: base.value === undefined ? null : withoutUserinfo(base.value), source: where(base.source) });
    for (const role of ['token', 'apiKey'] as const) {
      const credential = ctx.effective(role);
      rows.push({ name: credential.variable, value: credential.value ? maskCredential(credential.value) : null, source: where(credential.source) });
    }
    const up = ctx.upstream();
    const from = up.source === 'process' ? `the running proxy's environment (pid ${up.pid})` : up.source === 'service-file' ? `service definition ${tildePath(up.file!, env)}` : 'shell';
    rows.push({ name: 'CACHE_FIX_PROXY_UPSTREAM', value: up.value === undefined ? null : withoutUserinfo(up.value), source: from });
  } else {
    const target = ctx.target();
    const key = env[target.keyVar];
    rows.push({ name: target.keyVar, value: key ? maskCredential(key) : null, source: 'shell' });
  }
  return rows;
}
