import type { BuiltinExtension, HeaderMap, RequestMeta } from '../../../proxy/src/transforms/types.ts';

export interface BuiltinRun {
  body: any;
  headers: HeaderMap;
  meta: RequestMeta;
  changed: boolean;
  warnings: string[];
  reply: unknown;
}

export function newMeta(overrides: Partial<RequestMeta> = {}): RequestMeta {
  return { route: 'messages', requestId: 'req-test', sessionId: null, upstreamHost: 'upstream.test', requestedModel: null, session: {}, extra: {}, ...overrides };
}

/** Creates one built-in extension with the given env and runs its onRequest on the body. */
export async function runBuiltin(
  builtin: BuiltinExtension,
  body: unknown,
  options: { env?: Record<string, string>; headers?: HeaderMap; meta?: RequestMeta; home?: string } = {},
): Promise<BuiltinRun> {
  const warnings: string[] = [];
  const ext = builtin.create({ env: options.env ?? {}, homeDir: options.home ?? '/nonexistent-home', warn: (l) => warnings.push(l), now: () => new Date('2026-11-21T12:00:00Z') });
  const headers = options.headers ?? {};
  const meta = options.meta ?? newMeta();
  let changed = false;
  const reply = await ext.onRequest?.({ body, headers, meta, markChanged: () => { changed = true; } });
  return { body, headers, meta, changed, warnings, reply };
}
